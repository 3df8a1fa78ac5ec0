#!/usr/bin/python3
"""Latency breakdown (stacked bars) vs offered load for one variant: injection queue, local and
global queues, links of the minimal and of the nonminimal part of the path (src/METRICS.md); one
panel per traffic pattern (columns) and arbitration setting (rows).

    plots/plot_breakdown.py results/load_rr_tp --variant PB-RRG -o breakdown.png
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import figure_common as fc  # noqa: E402  (sets the Agg backend first)
import dfsim_results as dr  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402

PARTS = [("injection_queue", "injection queue", "#8da0cb"),
         ("local_queues", "local queues", "#66c2a5"),
         ("global_queues", "global queues", "#fc8d62"),
         ("minimal_links", "links, minimal part", "#b3b3b3"),
         ("nonminimal_links", "links, nonminimal part", "#e78ac3")]


class Breakdown:
    """The stacked bars of one panel: per offered load, the mean of each part over the seeds."""

    def __init__(self, pattern, setting, groups):
        groups = sorted(groups, key=lambda g: g.load)
        self.pattern = pattern
        self.setting = setting
        self.loads = [g.load for g in groups]
        per_load = [g.breakdown() for g in groups]
        self.parts = {key: [b[key] for b in per_load] for key, _, _ in PARTS}
        self.latency = [g.stat("latency_mean").mean for g in groups]


def choose_variant(groups, variant=None):
    names = sorted({g.variant for g in groups}, key=dr.variant_sort_key)
    if variant is not None:
        sel = [g for g in groups if variant in (g.variant, g.routing)]
        if not sel:
            raise dr.ResultError("no results for variant %s (have: %s)"
                                 % (variant, ", ".join(names)))
        return sel
    if len(names) != 1:
        raise dr.ResultError("several variants; choose one with --variant among: "
                             + ", ".join(names))
    return groups


def breakdown_panels(groups):
    """[[Breakdown or None per pattern] per setting] for the groups of one variant: columns are
    the patterns present, None where a setting lacks that pattern."""
    if len({g.h for g in groups}) > 1:
        raise dr.ResultError("results of several network sizes; plot one at a time")
    rows = []
    for setting in dr.settings_of(groups):
        row = []
        for pattern in dr.patterns_of(groups):
            sel = [g for g in groups if g.setting == setting and g.pattern == pattern]
            row.append(Breakdown(pattern, setting, sel) if sel else None)
        rows.append(row)
    return rows


def draw_breakdown(rows, title, latency_max=None):
    nrows = len(rows)
    ncols = max(len(r) for r in rows)
    fig, axes = plt.subplots(nrows, ncols, figsize=(4.0 * ncols + 1.8, 3.2 * nrows + 0.8),
                             squeeze=False)
    for i, row in enumerate(rows):
        for j in range(ncols):
            ax = axes[i][j]
            if j >= len(row) or row[j] is None:
                ax.set_visible(False)
                continue
            b = row[j]
            xs = list(range(len(b.loads)))
            bottom = [0.0] * len(xs)
            for key, legend, color in PARTS:
                vals = b.parts[key]
                ax.bar(xs, vals, 0.7, bottom=bottom, label=legend, color=color,
                       edgecolor="black", linewidth=0.3)
                bottom = [x + v for x, v in zip(bottom, vals)]
            ax.set_xticks(xs)
            ax.set_xticklabels([fc.fmt_load(x) for x in b.loads])
            ax.set_xlabel("offered load (phits/node/cycle)")
            ax.set_ylabel("latency (cycles)")
            ax.set_title(b.pattern + ("" if nrows == 1 else ", " + b.setting))
            ax.grid(True, axis="y", linewidth=0.3)
            if latency_max:
                ax.set_ylim(0, latency_max)
    first = next(ax for ax in axes.flat if ax.get_visible())
    handles, labels = first.get_legend_handles_labels()
    fig.legend(handles[::-1], labels[::-1], loc="center right", frameon=False)
    fig.suptitle(title)
    fig.tight_layout(rect=(0, 0, 1 - 1.7 / fig.get_figwidth(), 0.97))
    return fig


def default_title(groups):
    g = groups[0]
    settings = dr.settings_of(groups)
    tail = (", " + settings[0]) if len(settings) == 1 else ""
    return ("Latency breakdown of %s, h=%d (%d nodes)%s"
            % (g.variant, g.h, g.records[0].doc["network"]["nodes"], tail))


def main(argv=None):
    p = fc.base_parser(__doc__, "plots/out/breakdown.png")
    p.add_argument("--variant", help="the variant to show (needed when there are several)")
    fc.add_filters(p, variant=False)
    p.add_argument("--latency-max", type=float, help="cut the latency axis at this value")
    args = p.parse_args(argv)
    groups = dr.filter_groups(dr.load_groups(args.inputs), pattern=args.pattern,
                              settings=args.setting)
    if not groups:
        raise dr.ResultError("no results match the filters")
    groups = choose_variant(groups, args.variant)
    fig = draw_breakdown(breakdown_panels(groups), args.title or default_title(groups),
                         args.latency_max)
    return fc.save_figure(fig, args.output, args.pdf)


if __name__ == "__main__":
    sys.exit(fc.run_main(main))
