#!/usr/bin/python3
"""The interference table of a sweep over job settings, one row per variant and placement: the
job's offered / accepted load and mean message latency at the baseline (e.g. the background
silent), its slowdown at every other value of the baseline's axis (mean message latency over
the baseline's; closed-loop jobs also runtime over runtime, "latency x / runtime x"), and its
median / p99 message latency at the baseline and at the axis' last value. Markdown on stdout
or in -o FILE.

    plots/table_jobs.py results/dfplus_interference --job app --baseline jobs.bg.load=0 \\
        --variants 'UN-*' 'tornado-*'

With --served, what the job gets instead (how the other job's traffic and placement hit it):
its accepted / offered load and mean / p99 message latency at every value of the baseline's
axis but the baseline, e.g. the background at each of its loads:

    plots/table_jobs.py results/dfplus_interference --job bg --baseline jobs.bg.load=0 --served

A cell is "-" where the point is missing (a sweep still running). Several seeds: the mean over
them (plot_jobs.py --kind slowdown draws their 95 % CI).
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import dfsim_results as dr  # noqa: E402
import plot_jobs as pj  # noqa: E402


def fmt_ratio(x):
    return "%.2f" % x if x is not None else "-"


def fmt_cycles(x):
    return "{:,}".format(int(round(x))) if x is not None else "-"


def fmt_value(v):
    return pj.fc.fmt_load(v) if isinstance(v, (int, float)) else str(v)


def mean(values):
    values = [v for v in values if v is not None]
    return sum(values) / len(values) if values else None


def rows_of(records, job, baseline):
    """[(variant, series value, {axis value: [record...]})] in the sweep's order, and the
    series axis and the non-baseline values of the baseline axis."""
    key = baseline[0]
    if not any(key in r.point for r in records):
        raise dr.ResultError("--baseline: no point has the axis %s" % key)
    groups, series, x_axes = pj.panels(records, job)
    others = [k for k in x_axes if k != key]
    values = []
    rows = []
    for variant, rs in groups:
        by_row = {}
        for r in rs:
            row_key = (r.point.get(series) if series else "",
                       tuple(str(r.point.get(k)) for k in others))
            by_row.setdefault(row_key, {}).setdefault(r.point.get(key), []).append(r)
            v = r.point.get(key)
            if not pj.is_baseline(r, baseline) and v not in values:
                values.append(v)
        for (s, rest), cells in by_row.items():
            rows.append((variant, s, rest, cells))
    values.sort(key=pj.sort_value)
    return rows, series, others, values


def head_prefix(series, others):
    """The columns that name a row: variant, series (placement), the other axes."""
    return ["variant"] + ([pj.short_key(series)] if series else []) + \
        [pj.short_key(k) for k in others]


def row_prefix(variant, series, s, rest):
    return [variant] + ([pj.series_label(series, s)] if series else []) + list(rest)


def job_messages(record, job):
    return pj.job_of(record, job)["messages"]["latency"]


def table(records, job, baseline):
    key = baseline[0]
    rows, series, others, values = rows_of(records, job, baseline)
    # A sweep in progress may lack some baseline points: their rows show "-".
    slow = pj.baseline_slowdowns(records, job, baseline, skip_missing=True)
    last = values[-1] if values else None
    axis = pj.short_key(key)
    head = head_prefix(series, others) + \
        ["offered / accepted at %s %s" % (axis, fmt_value(baseline[1])),
         "mean latency at %s %s" % (axis, fmt_value(baseline[1]))] + \
        ["x at %s %s" % (axis, fmt_value(v)) for v in values] + \
        ["median / p99 at %s %s" % (axis, fmt_value(baseline[1]))] + \
        (["median / p99 at %s %s" % (axis, fmt_value(last))] if values else [])
    lines = ["| " + " | ".join(head) + " |",
             "|" + "---|" * (1 + bool(series) + len(others)) + "---|---:|" +
             "---:|" * len(values) + "---|" + ("---|" if values else "")]
    for variant, s, rest, cells in rows:
        base = [r for v, rs in cells.items() for r in rs if pj.is_baseline(rs[0], baseline)]
        cols = row_prefix(variant, series, s, rest)
        if base:
            loads = [pj.job_of(r, job).get("load", {}) for r in base]
            offered, accepted = mean([x.get("offered") for x in loads]), \
                mean([x.get("accepted") for x in loads])
            cols.append("%s / %s" % ("%.3f" % offered if offered is not None else "-",
                                     "%.3f" % accepted if accepted is not None else "-"))
            cols.append(fmt_cycles(mean([job_messages(r, job)["mean"] for r in base])))
        else:
            cols += ["-", "-"]
        for v in values:
            rs = [r for r in cells.get(v, []) if id(r) in slow]
            latency = mean([slow[id(r)]["message_latency"] for r in rs])
            runtime = mean([slow[id(r)]["runtime"] for r in rs])
            cols.append(fmt_ratio(latency) + (" / " + fmt_ratio(runtime)
                                              if runtime is not None else ""))
        for rs in [base] + ([cells.get(last, [])] if values else []):
            if rs:
                cols.append("%s / %s" % (fmt_cycles(mean([job_messages(r, job)["median"]
                                                          for r in rs])),
                                         fmt_cycles(mean([job_messages(r, job).get("p99")
                                                          for r in rs]))))
            else:
                cols.append("-")
        lines.append("| " + " | ".join(cols) + " |")
    return "\n".join(lines) + "\n"


def served_table(records, job, baseline):
    """Per row, at every value of the baseline's axis but the baseline: the job's accepted /
    offered load and its mean / p99 message latency."""
    key = baseline[0]
    rows, series, others, values = rows_of(records, job, baseline)
    axis = pj.short_key(key)
    head = head_prefix(series, others)
    for v in values:
        head += ["accepted / offered at %s %s" % (axis, fmt_value(v)),
                 "mean / p99 latency at %s %s" % (axis, fmt_value(v))]
    lines = ["| " + " | ".join(head) + " |",
             "|" + "---|" * (1 + bool(series) + len(others)) + "---|---:|" * len(values)]
    for variant, s, rest, cells in rows:
        cols = row_prefix(variant, series, s, rest)
        for v in values:
            rs = cells.get(v, [])
            if not rs:
                cols += ["-", "-"]
                continue
            loads = [pj.job_of(r, job)["load"] for r in rs]
            cols.append("%.3f / %.3f" % (mean([x["accepted"] for x in loads]),
                                         mean([x["offered"] for x in loads])))
            cols.append("%s / %s" % (fmt_cycles(mean([job_messages(r, job)["mean"] for r in rs])),
                                     fmt_cycles(mean([job_messages(r, job)["p99"] for r in rs]))))
        lines.append("| " + " | ".join(cols) + " |")
    return "\n".join(lines) + "\n"


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("inputs", nargs="+", metavar="SWEEP_DIR_OR_JSON",
                   help="sweep directories (searched recursively) or result documents")
    p.add_argument("--job", required=True, help="the job to show (its name in the config)")
    p.add_argument("--baseline", required=True, metavar="AXIS=VALUE",
                   help="the points slowdowns are over (e.g. jobs.bg.load=0)")
    p.add_argument("--served", action="store_true",
                   help="the job's accepted load and latency at every other value of the "
                   "baseline's axis, instead of its slowdowns")
    p.add_argument("--variants", nargs="+", metavar="PATTERN",
                   help="only the variants matching these shell-style patterns (e.g. 'UN-*')")
    p.add_argument("-o", "--output", metavar="FILE.md", help="write there (default: stdout)")
    args = p.parse_args(argv)
    records = [r for r in dr.load_records(args.inputs) if "jobs" in r.doc]
    if not records:
        raise dr.ResultError("no documents with jobs in %s" % ", ".join(args.inputs))
    records = pj.select_variants(records, args.variants)
    make = served_table if args.served else table
    text = make(records, args.job, pj.parse_baseline(args.baseline))
    if not args.output:
        sys.stdout.write(text)
        return []
    directory = os.path.dirname(args.output)
    if directory:
        os.makedirs(directory, exist_ok=True)
    with open(args.output, "w") as f:
        f.write(text)
    return [args.output]


if __name__ == "__main__":
    sys.exit(pj.fc.run_main(main))
