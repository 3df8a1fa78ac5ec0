#!/usr/bin/python3
"""The field's figures for jobs that share a network, from the documents of a sweep over job
settings (conf/sweeps/interference.cfg):

  --kind latency   per-job message-latency box plots (min, Q1, median, Q3, max; the mean as a
                   dot) across the sweep's points, one panel per variant; with sim.isolate the
                   job's latencies alone come first
  --kind slowdown  the job's slowdown (runtime and mean message latency, each over the same job
                   run alone: sim.isolate) as bars, mean and 95% CI over the seeds; with
                   --baseline AXIS=VALUE over the point of the same variant, seed and other
                   axes where AXIS has VALUE instead (e.g. jobs.bg.load=0: the background
                   silent), which open-loop jobs need (sim.isolate runs closed-loop jobs only);
                   the runtime slowdown is then shown for closed-loop jobs only

    plots/plot_jobs.py results/interference --job app --kind latency -o app_latency.png
    plots/plot_jobs.py results/interference --job app --kind slowdown -o app_slowdown.png
    plots/plot_jobs.py results/quick_dfplus_interference --job app --kind slowdown \
        --baseline jobs.bg.load=0 --variants 'UN-*' -o un_slowdown.png

Points are labelled by the sweep's axes (sim.seed aside): the axis that names a placement (or
an allocation file: the file's name without folder and extension) makes the series, the others
the positions along the x axis. --variants keeps the variants matching any of its shell-style
patterns (a figure per family of variants).
"""

import fnmatch
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import figure_common as fc  # noqa: E402  (sets the Agg backend first)
import dfsim_results as dr  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402

SERIES_COLORS = ["#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860"]


def job_of(record, name):
    """The job object called name in a record's document (ResultError if it has none)."""
    for job in record.doc.get("jobs", []):
        if job.get("name") == name:
            return job
    names = [j.get("name") for j in record.doc.get("jobs", [])]
    raise dr.ResultError("%s: no job '%s' (jobs: %s)" % (record.path, name,
                                                        ", ".join(names) or "none"))


def short_key(key):
    """'jobs.bg.load' -> 'bg load', 'routing.mechanism' -> 'mechanism'."""
    parts = key.split(".")
    return " ".join(parts[1:]) if parts[0] == "jobs" else parts[-1]


def axes_of(records):
    """(series axis or None, [x axes]): the sweep's axes but sim.seed; the placement axis (if
    any) makes the series."""
    keys = []
    for r in records:
        for k in r.point:
            if k != "sim.seed" and k not in keys:
                keys.append(k)
    series = next((k for k in keys if k.endswith(".placement")), None) or \
        next((k for k in keys if k.endswith(".allocation_file")), None)
    return series, [k for k in keys if k != series]


def series_label(key, value):
    """A series' legend entry: 'placement contiguous', or an allocation file's bare name."""
    if key and key.endswith(".allocation_file"):
        return os.path.splitext(os.path.basename(str(value)))[0]
    return "%s %s" % (short_key(key), value) if key else str(value)


def x_label(record, x_axes):
    return "\n".join("%s\n%s" % (short_key(k), fc.fmt_load(record.point[k])
                                  if isinstance(record.point[k], (int, float)) else record.point[k])
                     for k in x_axes if k in record.point)


def sort_value(v):
    return (0, v, "") if isinstance(v, (int, float)) else (1, 0, str(v))


def panels(records, job):
    """[(variant, [record...])] in variant order, each sorted by series then x."""
    by_variant = {}
    for r in records:
        job_of(r, job)
        by_variant.setdefault(r.sweep_variant or r.variant, []).append(r)
    series, x_axes = axes_of(records)

    def key(r):
        return ([sort_value(r.point.get(series))] if series else []) + \
               [sort_value(r.point.get(k)) for k in x_axes] + [sort_value(r.seed)]
    def variant_key(item):
        """The sweep's order (its points' indexes) when the documents carry it."""
        indexes = [r.doc.get("sweep", {}).get("index") for r in item[1]]
        indexes = [i for i in indexes if isinstance(i, int)]
        return (min(indexes) if indexes else float("inf"), dr.variant_sort_key(item[0]))
    return [(v, sorted(rs, key=key)) for v, rs in
            sorted(by_variant.items(), key=variant_key)], series, x_axes


def spread_box(spread, label):
    """A matplotlib bxp() entry from a document's spread (min, q1, median, q3, max, mean)."""
    return {"label": label, "whislo": spread["min"], "q1": spread["q1"], "med": spread["median"],
            "q3": spread["q3"], "whishi": spread["max"], "mean": spread["mean"], "fliers": []}


def draw_latency(records, job, title):
    groups, series, x_axes = panels(records, job)
    first_seed = min(r.seed for r in records)
    seeds = len({r.seed for r in records})
    width = max(len([r for r in rs if r.seed == first_seed]) for _, rs in groups)
    fig, axes = plt.subplots(len(groups), 1, figsize=(max(6.0, 0.75 * width + 3), 3.4 * len(groups)),
                             squeeze=False)
    for ax, (variant, rs) in zip(axes[:, 0], groups):
        boxes, colors, series_values, positions = [], [], [], []
        at = 0.0
        for r in [r for r in rs if r.seed == first_seed]:
            j = job_of(r, job)
            s = r.point.get(series) if series else ""
            color_index = len(series_values)
            if s not in series_values:
                series_values.append(s)
                at += 0.5 if boxes else 0  # a gap between series
                if "alone" in j:  # the job alone opens its series
                    boxes.append(spread_box(j["alone"]["message_latency"], "alone"))
                    colors.append(SERIES_COLORS[color_index % len(SERIES_COLORS)])
                    positions.append(at)
                    at += 1
            color = SERIES_COLORS[series_values.index(s) % len(SERIES_COLORS)]
            boxes.append(spread_box(j["messages"]["latency"], x_label(r, x_axes)))
            colors.append(color)
            positions.append(at)
            at += 1
        art = ax.bxp(boxes, positions=positions, showmeans=True, patch_artist=True,
                     showfliers=False, medianprops={"color": "black"},
                     meanprops={"marker": "o", "markersize": 3, "markerfacecolor": "black",
                                "markeredgecolor": "black"})
        for patch, color in zip(art["boxes"], colors):
            patch.set_facecolor(color)
            patch.set_alpha(0.6)
        for i, s in enumerate(series_values):
            ax.plot([], [], "s", color=SERIES_COLORS[i % len(SERIES_COLORS)], alpha=0.6,
                    label=series_label(series, s))
        if series:
            ax.legend(loc="upper left")
        ax.set_title("%s: job %s" % (variant, job))
        ax.set_ylabel("message latency (cycles)")
        ax.tick_params(axis="x", labelsize=7)
        ax.set_ylim(bottom=0)
        ax.grid(True, axis="y", alpha=0.3)
    fig.suptitle(title or "Message latency of job %s (box Q1-Q3, line median, whiskers min-max, "
                 "dot mean)%s" % (job, "; seed %s of %d" % (first_seed, seeds) if seeds > 1
                                  else ""))
    fig.tight_layout(rect=(0, 0, 1, 1 - 0.45 / fig.get_figheight()))  # room for the suptitle
    return fig


def parse_baseline(text):
    """'jobs.bg.load=0' -> ('jobs.bg.load', 0.0): the value as a number when it reads as one."""
    if not text or "=" not in text:
        raise dr.ResultError("--baseline %r: expected AXIS=VALUE, e.g. jobs.bg.load=0" % text)
    key, value = text.split("=", 1)
    try:
        return key, float(value)
    except ValueError:
        return key, value


def is_baseline(record, baseline):
    key, value = baseline
    v = record.point.get(key)
    return v == value if isinstance(value, str) else isinstance(v, (int, float)) and v == value


def baseline_slowdowns(records, job, baseline, skip_missing=False):
    """{id(record): {"message_latency": x, "runtime": y or None}} for every record but the
    baseline ones: its job's mean message latency (and runtime, closed loop) over those of the
    record that differs from it only in having the baseline value of the baseline axis. A
    record without such a point is an error, or with skip_missing left out (a sweep still
    running)."""
    key = baseline[0]
    if not any(key in r.point for r in records):
        raise dr.ResultError("--baseline: no point has the axis %s" % key)

    def rest(r):
        return (r.sweep_variant or r.variant, r.seed,
                tuple(sorted((k, str(v)) for k, v in r.point.items() if k != key)))
    bases = {rest(r): r for r in records if is_baseline(r, baseline)}
    out = {}
    for r in records:
        if is_baseline(r, baseline):
            continue
        base = bases.get(rest(r))
        if base is None and skip_missing:
            continue
        if base is None:
            raise dr.ResultError("%s: no baseline point (%s=%s) for it" % (r.path, key,
                                                                           baseline[1]))
        here, there = job_of(r, job), job_of(base, job)
        latency = there["messages"]["latency"]["mean"]
        runtime = here.get("runtime_cycles"), there.get("runtime_cycles")
        out[id(r)] = {"message_latency": here["messages"]["latency"]["mean"] / latency
                      if latency else None,
                      "runtime": runtime[0] / runtime[1] if None not in runtime and runtime[1]
                      else None}
    return out


def draw_slowdown(records, job, title, baseline=None):
    if baseline:
        slow = baseline_slowdowns(records, job, baseline)
        records = [r for r in records if id(r) in slow]

        def slowdown_of(r):
            return slow[id(r)]
    else:
        def slowdown_of(r):
            return job_of(r, job).get("slowdown", {})
    groups, series, x_axes = panels(records, job)
    measures = [("runtime", "runtime slowdown"), ("message_latency", "message latency slowdown")]
    if baseline and not any(slowdown_of(r)["runtime"] is not None for r in records):
        measures = measures[1:]  # open-loop jobs have no runtime
    fig, axes = plt.subplots(len(groups), len(measures), figsize=(max(8.0, 5.5 * len(measures)),
                                                                  3.2 * len(groups)),
                             squeeze=False)
    for row, (variant, rs) in zip(axes, groups):
        if not baseline and not any("slowdown" in job_of(r, job) for r in rs):
            raise dr.ResultError("job %s has no slowdown in %s: run the sweep with "
                                 "sim.isolate = true, or give --baseline" % (job, variant))
        series_values, xs = [], []
        for r in rs:
            s = r.point.get(series) if series else ""
            if s not in series_values:
                series_values.append(s)
            x = x_label(r, x_axes)
            if x not in xs:
                xs.append(x)
        width = 0.8 / max(1, len(series_values))
        for ax, (key, label) in zip(row, measures):
            for i, s in enumerate(series_values):
                means, cis = [], []
                for x in xs:
                    values = [slowdown_of(r)[key] for r in rs
                              if (not series or r.point.get(series) == s) and x_label(r, x_axes) == x
                              and slowdown_of(r).get(key) is not None]
                    stat = dr.mean_ci(values)
                    means.append(stat.mean if stat.mean is not None else 0)
                    cis.append(stat.ci95 or 0)
                positions = [k + (i - (len(series_values) - 1) / 2) * width for k in range(len(xs))]
                ax.bar(positions, means, width, yerr=cis, capsize=2,
                       color=SERIES_COLORS[i % len(SERIES_COLORS)], alpha=0.8,
                       label=series_label(series, s) if series else None)
            ax.axhline(1.0, color="black", linewidth=0.8)
            ax.set_xticks(range(len(xs)))
            ax.set_xticklabels(xs, fontsize=7)
            ax.set_title("%s: job %s, %s" % (variant, job, label))
            ax.set_ylabel("x at %s = %s" % (short_key(baseline[0]), fc.fmt_load(baseline[1])
                                            if isinstance(baseline[1], float) else baseline[1])
                          if baseline else "x alone")
            ax.grid(True, axis="y", alpha=0.3)
            if series:
                ax.legend(loc="upper left")
    against = ("the point at %s = %s" % (short_key(baseline[0]), baseline[1])) if baseline \
        else "the same job alone"
    fig.suptitle(title or "Slowdown of job %s over %s (mean, 95%% CI over seeds)"
                 % (job, against))
    fig.tight_layout(rect=(0, 0, 1, 1 - 0.45 / fig.get_figheight()))  # room for the suptitle
    return fig


def select_variants(records, patterns):
    """The records whose variant matches one of the shell-style patterns (all without any)."""
    if not patterns:
        return records
    kept = [r for r in records
            if any(fnmatch.fnmatchcase(r.sweep_variant or r.variant or "", p) for p in patterns)]
    if not kept:
        raise dr.ResultError("--variants %s: no variant matches" % " ".join(patterns))
    return kept


def main(argv=None):
    p = fc.base_parser(__doc__, "jobs.png")
    p.add_argument("--job", required=True, help="the job to show (its name in the config)")
    p.add_argument("--kind", choices=["latency", "slowdown"], default="latency",
                   help="message-latency box plots (default) or slowdown bars")
    p.add_argument("--baseline", metavar="AXIS=VALUE",
                   help="slowdown: over the point with AXIS = VALUE (e.g. jobs.bg.load=0) "
                        "instead of the job alone (sim.isolate)")
    p.add_argument("--variants", nargs="+", metavar="PATTERN",
                   help="only the variants matching these shell-style patterns (e.g. 'UN-*')")
    args = p.parse_args(argv)
    records = [r for r in dr.load_records(args.inputs) if "jobs" in r.doc]
    if not records:
        raise dr.ResultError("no documents with jobs in %s" % ", ".join(args.inputs))
    records = select_variants(records, args.variants)
    if args.kind == "latency":
        fig = draw_latency(records, args.job, args.title)
    else:
        baseline = parse_baseline(args.baseline) if args.baseline else None
        fig = draw_slowdown(records, args.job, args.title, baseline)
    return fc.save_figure(fig, args.output, args.pdf)


if __name__ == "__main__":
    sys.exit(fc.run_main(main))
