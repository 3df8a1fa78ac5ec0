#!/usr/bin/python3
"""Accepted load and mean latency vs offered load: one column of panels per traffic pattern, one
line per variant, error bars = 95% confidence interval over the seeds when there are several.

    plots/plot_load.py results/load_rr_tp -o plots/out/load_rr_tp.png [--pdf]
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import figure_common as fc  # noqa: E402  (sets the Agg backend first)
import dfsim_results as dr  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib import ticker  # noqa: E402


class Series:
    """One line of one panel: the groups of a variant under a pattern, by offered load."""

    def __init__(self, label, groups):
        groups = sorted(groups, key=lambda g: g.load)
        self.label = label
        self.loads = [g.load for g in groups]
        acc = [g.stat("accepted") for g in groups]
        lat = [g.stat("latency_mean") for g in groups]
        self.accepted = [s.mean for s in acc]
        self.accepted_ci = [s.ci95 or 0.0 for s in acc]
        self.latency = [s.mean for s in lat]
        self.latency_ci = [s.ci95 or 0.0 for s in lat]
        self.seeds = max(g.seeds for g in groups)


def load_panels(groups):
    """[(pattern label, [Series...])] in the canonical pattern and variant order."""
    panels = []
    for pattern in dr.patterns_of(groups):
        selected = [g for g in groups if g.pattern == pattern]
        panels.append((pattern, [Series(label, gs)
                                 for label, gs in dr.split_series(selected, x="load")]))
    return panels


def default_title(groups):
    g = groups[0]
    sweeps = sorted({x.sweep_name for x in groups if x.sweep_name})
    sizes = sorted({(x.h, x.a, x.p) for x in groups})
    size = ", ".join("h=%d a=%d p=%d" % s for s in sizes)
    nodes = g.records[0].doc["network"]["nodes"]
    settings = dr.settings_of(groups)
    head = (sweeps[0] + ": ") if len(sweeps) == 1 else ""
    tail = (", " + "/".join(settings)) if len(settings) == 1 else ""
    if len(sizes) == 1:
        return "%sdragonfly %s (%d nodes)%s" % (head, size, nodes, tail)
    return "%sdragonfly %s%s" % (head, size, tail)


def _plain(y, _pos):
    return "%g" % y


def draw_load(panels, title, latency_scale="auto"):
    """The figure: row 0 accepted vs offered, row 1 mean latency vs offered. The latency axis is
    logarithmic when latency_scale is "log", or "auto" and latencies span more than a factor 4
    (saturated points grow by orders of magnitude)."""
    ncols = len(panels)
    fig, axes = plt.subplots(2, ncols, figsize=(4.2 * ncols + 1.6, 7.0), squeeze=False,
                             sharex="col")
    handles = {}
    for col, (pattern, series) in enumerate(panels):
        ax_acc, ax_lat = axes[0][col], axes[1][col]
        top = max([max(s.loads) for s in series] + [0.1])
        ax_acc.plot([0, top], [0, top], color="#cccccc", linewidth=0.8, zorder=0,
                    label="_offered")
        for i, s in enumerate(series):
            style = dict(color=dr.variant_color(s.label, i), marker=dr.variant_marker(s.label),
                         markersize=4, linewidth=1.2, linestyle=dr.setting_linestyle(s.label),
                         capsize=2 if s.seeds > 1 else 0)
            yerr = s.accepted_ci if s.seeds > 1 else None
            h = ax_acc.errorbar(s.loads, s.accepted, yerr=yerr, label=s.label, **style)
            handles.setdefault(s.label, h)
            pts = [(x, y, e) for x, y, e in zip(s.loads, s.latency, s.latency_ci) if y]
            yerr = [p[2] for p in pts] if s.seeds > 1 else None
            ax_lat.errorbar([p[0] for p in pts], [p[1] for p in pts], yerr=yerr, label=s.label,
                            **style)
        ax_acc.set_title(pattern)
        ax_acc.set_ylabel("accepted load (phits/node/cycle)")
        ax_acc.set_xlim(0, top * 1.03)
        ax_acc.set_ylim(bottom=0)
        ax_acc.grid(True, linewidth=0.3)
        ax_lat.set_xlabel("offered load (phits/node/cycle)")
        ax_lat.set_ylabel("mean latency (cycles)")
        lats = [y for s in series for y in s.latency if y]
        if latency_scale == "log" or (latency_scale == "auto" and lats
                                      and max(lats) > 4 * min(lats)):
            ax_lat.set_yscale("log")
            ax_lat.yaxis.set_major_locator(ticker.LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
            ax_lat.yaxis.set_major_formatter(ticker.FuncFormatter(_plain))
            ax_lat.yaxis.set_minor_formatter(ticker.NullFormatter())
        ax_lat.grid(True, which="both", linewidth=0.3)
    labels = list(handles)
    fig.legend([handles[k] for k in labels], labels, loc="center right", frameon=False,
               title="routing")
    fig.suptitle(title)
    fig.tight_layout(rect=(0, 0, 1 - 1.5 / fig.get_figwidth(), 0.97))
    return fig


def main(argv=None):
    p = fc.base_parser(__doc__, "plots/out/load.png")
    fc.add_filters(p)
    p.add_argument("--latency-scale", choices=["auto", "log", "linear"], default="auto",
                   help="latency axis; auto = log when latencies span more than a factor 4")
    args = p.parse_args(argv)
    groups = dr.load_groups(args.inputs)
    groups = dr.filter_groups(groups, pattern=args.pattern, variants=args.variant,
                              settings=args.setting)
    if not groups:
        raise dr.ResultError("no results match the filters")
    fig = draw_load(load_panels(groups), args.title or default_title(groups),
                    args.latency_scale)
    return fc.save_figure(fig, args.output, args.pdf)


if __name__ == "__main__":
    sys.exit(fc.run_main(main))
