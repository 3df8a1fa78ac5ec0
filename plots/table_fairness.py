#!/usr/bin/python3
"""Fairness table, one row per variant: saturation load, and at two offered loads the minimum
injected load per router (and its % of the offered load), Max/Min and CoV of the routers' injected
loads. Writes Markdown (one table per traffic pattern and arbitration setting) and the same
numbers as CSV.

    plots/table_fairness.py results/load_rr_tp --loads 0.2 0.4 -o plots/out/fairness.md

Saturation load: from the saturation searches of the sweep (sweep.json "saturation_groups") when
it has them for that variant and pattern, else estimated as the highest offered load whose
accepted load is at least 95% of the offered load.
"""

import argparse
import csv
import io
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import dfsim_results as dr  # noqa: E402

FRACTION = 0.95


class Cell:
    """Fairness at one offered load: Stats over the seeds, or None when the load was not run."""

    def __init__(self, group):
        self.min_injected = group.stat("min_injected_load")
        self.min_injected_pct = group.stat("min_injected_pct_of_offered")
        self.max_min = group.stat("max_min")
        self.cov = group.stat("cov")
        self.seeds = group.seeds
        self.starved = self.max_min.starved  # seeds where some router injected nothing


class Row:
    def __init__(self, variant, saturation, saturation_source, cells):
        self.variant = variant
        self.saturation = saturation            # load or None
        self.saturation_source = saturation_source  # "sweep", "estimated", "beyond", "below"
        self.cells = cells                      # {load: Cell or None}


class Table:
    def __init__(self, pattern, setting, h, nodes, loads, rows):
        self.pattern, self.setting, self.h, self.nodes = pattern, setting, h, nodes
        self.loads = loads
        self.rows = rows


def fairness_tables(groups, loads, saturation=None):
    """Tables per (pattern, setting, size) with one Row per variant. `saturation` maps
    (variant, pattern) to the sweep's saturation loads (dfsim_results.sweep_saturation)."""
    saturation = saturation or {}
    tables = []
    keys = sorted({(g.pattern, g.setting, g.h) for g in groups},
                  key=lambda k: (dr.pattern_sort_key(k[0]), dr.setting_sort_key(k[1]), k[2]))
    for pattern, setting, h in keys:
        sel = [g for g in groups if (g.pattern, g.setting, g.h) == (pattern, setting, h)]
        rows = []
        for label, gs in dr.split_series(sel):
            variant = gs[0].sweep_variant or gs[0].variant
            if (variant, pattern) in saturation:
                sat, source = saturation[(variant, pattern)], "sweep"
            elif (variant, None) in saturation:
                sat, source = saturation[(variant, None)], "sweep"
            else:
                sat, reached = dr.estimate_saturation(gs, FRACTION)
                source = "estimated" if reached and sat is not None else \
                    ("beyond" if not reached else "below")
                if sat is None:
                    sat = min(g.load for g in gs)
            cells = {}
            for load in loads:
                match = [g for g in gs if abs(g.load - load) < 1e-9]
                cells[load] = Cell(match[0]) if match else None
            rows.append(Row(label, sat, source, cells))
        tables.append(Table(pattern, setting, h, sel[0].records[0].doc["network"]["nodes"],
                            loads, rows))
    return tables


def max_min_text(cell):
    """Max/Min, or "inf" when a router starved (injected nothing) in every seed; when only
    some seeds starved, the mean of the others and the count."""
    st = cell.max_min
    if st.mean is None:
        return "inf (starved)"
    if st.starved:
        return "%s (inf in %d/%d seeds)" % (_num(st.mean, 2), st.starved, st.n or cell.seeds)
    return _num(st.mean, 2)


def _num(x, digits=3):
    return "-" if x is None else ("%.*f" % (digits, x))


def saturation_text(row):
    if row.saturation_source == "beyond":
        return ">= " + _num(row.saturation, 2)
    if row.saturation_source == "below":
        return "< " + _num(row.saturation, 2)
    return _num(row.saturation, 2)


def markdown(tables):
    out = io.StringIO()
    for t in tables:
        out.write("### %s, %s, h=%d (%d nodes)\n\n" % (t.pattern, t.setting, t.h, t.nodes))
        head = ["variant", "saturation load"]
        for load in t.loads:
            head += ["min inj. @%s" % _fmt_load(load), "Max/Min @%s" % _fmt_load(load),
                     "CoV @%s" % _fmt_load(load)]
        out.write("| " + " | ".join(head) + " |\n")
        out.write("|" + "|".join(["---"] + ["---:"] * (len(head) - 1)) + "|\n")
        for row in t.rows:
            cols = [row.variant, saturation_text(row)]
            for load in t.loads:
                c = row.cells[load]
                if c is None:
                    cols += ["-", "-", "-"]
                    continue
                cols.append("%s (%.1f%%)" % (_num(c.min_injected.mean, 4),
                                             c.min_injected_pct.mean or 0.0))
                cols.append(max_min_text(c))
                cols.append(_num(c.cov.mean, 3))
            out.write("| " + " | ".join(cols) + " |\n")
        out.write("\n")
    out.write("Saturation: highest offered load with accepted >= %d%% of offered "
              "(\">=\": not reached in the sweep); min inj.: smallest per-router injected load, "
              "phits/node/cycle (%% of offered); mean over the seeds.\n" % int(FRACTION * 100))
    return out.getvalue()


def csv_text(tables):
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    loads = sorted({x for t in tables for x in t.loads})
    head = ["pattern", "setting", "h", "variant", "saturation_load", "saturation_source"]
    for load in loads:
        tag = _fmt_load(load)
        head += ["min_injected_load@" + tag, "min_injected_load_ci95@" + tag,
                 "min_injected_pct@" + tag, "max_min@" + tag, "max_min_ci95@" + tag,
                 "cov@" + tag, "cov_ci95@" + tag, "seeds@" + tag, "starved_seeds@" + tag]
    w.writerow(head)
    for t in tables:
        for row in t.rows:
            line = [t.pattern, t.setting, t.h, row.variant, _csv(row.saturation),
                    row.saturation_source]
            for load in loads:
                c = row.cells.get(load)
                if c is None:
                    line += [""] * 9
                    continue
                line += [_csv(c.min_injected.mean), _csv(c.min_injected.ci95),
                         _csv(c.min_injected_pct.mean),
                         "inf" if c.max_min.mean is None else _csv(c.max_min.mean),
                         _csv(c.max_min.ci95), _csv(c.cov.mean), _csv(c.cov.ci95), c.seeds,
                         c.starved]
            w.writerow(line)
    return out.getvalue()


def _csv(x):
    return "" if x is None else repr(round(float(x), 6))


def _fmt_load(x):
    return ("%.3f" % x).rstrip("0").rstrip(".")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("inputs", nargs="+", metavar="SWEEP_DIR_OR_JSON")
    p.add_argument("-o", "--output", metavar="OUT.md",
                   help="Markdown output (default: print to stdout)")
    p.add_argument("--csv", metavar="OUT.csv",
                   help="CSV output (default: OUT.md with a .csv suffix when -o is given)")
    p.add_argument("--loads", nargs=2, type=float, default=[0.2, 0.4], metavar="LOAD",
                   help="the two offered loads of the fairness columns (default 0.2 0.4)")
    p.add_argument("--pattern", help="only this traffic pattern (UN, ADV+1, ADVc, ...)")
    p.add_argument("--variant", action="append", metavar="NAME", help="only these variants")
    p.add_argument("--setting", action="append", metavar="ARB", help="only these settings")
    args = p.parse_args(argv)
    try:
        groups = dr.load_groups(args.inputs)
        indexes = dr.find_sweep_indexes(args.inputs)
        groups = dr.filter_groups(groups, pattern=args.pattern, variants=args.variant,
                                  settings=args.setting)
        if not groups:
            raise dr.ResultError("no results match the filters")
    except dr.ResultError as e:
        print("table_fairness.py: %s" % e, file=sys.stderr)
        return 2
    tables = fairness_tables(groups, args.loads, dr.sweep_saturation(indexes))
    md, table_csv = markdown(tables), csv_text(tables)
    if args.output is None:  # the Markdown on stdout, so the file names on stderr
        sys.stdout.write(md)
        if args.csv:
            print(_write(args.csv, table_csv), file=sys.stderr)
        return 0
    print(_write(args.output, md))
    print(_write(args.csv or os.path.splitext(args.output)[0] + ".csv", table_csv))
    return 0


def _write(path, text):
    directory = os.path.dirname(path)
    if directory:
        os.makedirs(directory, exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


if __name__ == "__main__":
    sys.exit(main())
