#!/usr/bin/python3
"""Accepted load, Max/Min and CoV of the routers' injected loads vs network size (h, with the
balanced a = 2p = 2h), one line per variant, at one traffic point (default ADVc 0.4).

    plots/plot_scaling.py results/injection results/scaling_h8 results/scaling_h10 \
        --setting RR+TP -o plots/out/scaling_rr_tp.png
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import figure_common as fc  # noqa: E402  (sets the Agg backend first)
import dfsim_results as dr  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib import ticker  # noqa: E402

PANELS = [("accepted", "accepted load (phits/node/cycle)"),
          ("max_min", "Max/Min injected load"),
          ("cov", "CoV of injected load")]


class Series:
    """One variant's metrics by network size; a None mean is an infinite Max/Min (starved)."""

    def __init__(self, label, groups):
        groups = sorted(groups, key=lambda g: g.h)
        self.label = label
        self.h = [g.h for g in groups]
        self.nodes = [g.records[0].doc["network"]["nodes"] for g in groups]
        self.stats = {m: [g.stat(m) for g in groups] for m, _ in PANELS}
        self.seeds = max(g.seeds for g in groups)


def scaling_series(groups, pattern, load):
    """[Series] for the groups at (pattern, load), one per variant (and setting if mixed)."""
    sel = dr.filter_groups(groups, pattern=pattern, load=load)
    return [Series(label, gs) for label, gs in dr.split_series(sel, x="h")]


def draw_scaling(series, title, offered=None):
    fig, axes = plt.subplots(1, len(PANELS), figsize=(4.0 * len(PANELS) + 1.6, 3.8),
                             squeeze=False)
    sizes = sorted({(h, n) for s in series for h, n in zip(s.h, s.nodes)})
    for col, (metric, ylabel) in enumerate(PANELS):
        ax = axes[0][col]
        starved_any = False
        for i, s in enumerate(series):
            pts = [(h, st.mean, st.ci95 or 0.0) for h, st in zip(s.h, s.stats[metric])
                   if st.mean is not None]
            multi = s.seeds > 1
            ax.errorbar([p[0] for p in pts], [p[1] for p in pts],
                        yerr=[p[2] for p in pts] if multi else None, capsize=2 if multi else 0,
                        label=s.label, color=dr.variant_color(s.label, i),
                        marker=dr.variant_marker(s.label), markersize=4, linewidth=1.2,
                        linestyle=dr.setting_linestyle(s.label))
            for h, st in zip(s.h, s.stats[metric]):
                if st.starved:  # infinite Max/Min in some seeds: a router injected nothing
                    ax.plot([h], [0.98], transform=ax.get_xaxis_transform(), linestyle="none",
                            marker=dr.variant_marker(s.label), markersize=5, clip_on=False,
                            markerfacecolor="none", color=dr.variant_color(s.label, i),
                            label="_starved")
                    starved_any = True
        if metric == "accepted" and offered is not None:
            ax.axhline(offered, color="#999999", linestyle="--", linewidth=0.8,
                       label="_offered")
        ax.set_xticks([h for h, _ in sizes])
        ax.set_xticklabels(["%d\n(%d nodes)" % (h, n) for h, n in sizes])
        ax.set_xlabel("h (a = 2p = 2h)")
        ax.set_ylabel(ylabel)
        if metric == "max_min":
            # Max/Min >= 1; it spans orders of magnitude once a router nearly starves.
            values = [st.mean for s in series for st in s.stats[metric] if st.mean]
            if values and max(values) > 10:
                ax.set_yscale("log")
                ax.yaxis.set_major_locator(ticker.LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
                ax.yaxis.set_major_formatter(ticker.FuncFormatter(lambda y, _: "%g" % y))
                ax.yaxis.set_minor_formatter(ticker.NullFormatter())
            top = max(values) * (3.0 if ax.get_yscale() == "log" else 1.15) if values else 2.0
            ax.set_ylim(1.0, top)
            if starved_any:
                ax.set_title("open marker at the top: infinite in some seeds\n"
                             "(a router injected nothing)", fontsize=7)
        else:
            ax.set_ylim(bottom=0)
        ax.grid(True, which="major", linewidth=0.3)
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="center right", frameon=False, title="routing")
    fig.suptitle(title)
    fig.tight_layout(rect=(0, 0, 1 - 1.5 / fig.get_figwidth(), 0.95))
    return fig


def main(argv=None):
    p = fc.base_parser(__doc__, "plots/out/scaling.png")
    fc.add_filters(p, load=True)
    args = p.parse_args(argv)
    groups = dr.filter_groups(dr.load_groups(args.inputs), variants=args.variant,
                              settings=args.setting)
    pattern, load = dr.choose_traffic_point(groups, args.pattern, args.load)
    series = scaling_series(groups, pattern, load)
    settings = dr.settings_of(dr.filter_groups(groups, pattern=pattern, load=load))
    title = args.title or ("Network size: %s at offered load %s%s" % (
        pattern, fc.fmt_load(load), (", " + settings[0]) if len(settings) == 1 else ""))
    sel = dr.filter_groups(groups, pattern=pattern, load=load)
    offered = sum(g.stat("offered").mean for g in sel) / len(sel)
    fig = draw_scaling(series, title, offered)
    return fc.save_figure(fig, args.output, args.pdf)


if __name__ == "__main__":
    sys.exit(fc.run_main(main))
