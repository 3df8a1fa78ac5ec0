#!/usr/bin/python3
"""Injected load per router of group 0 for each variant: R_in (router 0, receives the minimal
traffic of the groups before it), R_out (router a-1, owns the links ADVc needs) and the mean of the
other routers, bars side by side; one panel per arbitration setting.

    plots/plot_injection.py results/injection --pattern ADVc --load 0.4 -o injection.png
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import figure_common as fc  # noqa: E402  (sets the Agg backend first)
import dfsim_results as dr  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402

BARS = [("R_in", "R_in (router 0)", "#4c72b0"),
        ("R_out", "R_out (router a-1)", "#dd8452"),
        ("others", "other routers (mean)", "#8c8c8c")]


def group0_split(vector):
    """(R_in, R_out, mean of the others) of a group0_injected_load vector of a routers."""
    a = len(vector)
    others = vector[1:a - 1]
    return vector[0], vector[a - 1], (sum(others) / len(others) if others else 0.0)


class VariantBars:
    """The three bars of one variant: mean and CI over the seeds."""

    def __init__(self, label, group):
        self.label = label
        per_seed = [group0_split(r.doc["fairness"]["group0_injected_load"])
                    for r in group.records]
        self.stats = {key: dr.mean_ci([s[i] for s in per_seed])
                      for i, (key, _, _) in enumerate(BARS)}
        self.offered = group.stat("offered").mean
        self.seeds = group.seeds


def injection_panels(groups, pattern, load):
    """[(setting, [VariantBars...])] for the groups at (pattern, load), one panel per setting."""
    sel = dr.filter_groups(groups, pattern=pattern, load=load)
    sizes = {g.h for g in sel}
    if len(sizes) > 1:
        raise dr.ResultError("results of several network sizes (h = %s); plot one at a time"
                             % ", ".join(str(h) for h in sorted(sizes)))
    panels = []
    for setting in dr.settings_of(sel):
        in_setting = [g for g in sel if g.setting == setting]
        bars = []
        for label, gs in dr.split_series(in_setting, x=None):
            bars.append(VariantBars(label, gs[0]))
        panels.append((setting, bars))
    return panels


def draw_injection(panels, title):
    n = len(panels)
    nvar = max(len(b) for _, b in panels)
    fig, axes = plt.subplots(n, 1, figsize=(max(6.0, 0.75 * nvar + 2.0), 3.0 * n + 0.8),
                             squeeze=False, sharey=True)
    width = 0.27
    # Few seeds make wide intervals (t = 12.7 for two): the axis follows the bars and the offered
    # load, and longer error bars are cut at the top.
    top = max([b.stats[k].mean or 0.0 for _, bs in panels for b in bs for k, _, _ in BARS] +
              [b.offered or 0.0 for _, bs in panels for b in bs]) * 1.3
    for row, (setting, bars) in enumerate(panels):
        ax = axes[row][0]
        xs = list(range(len(bars)))
        for k, (key, legend, color) in enumerate(BARS):
            heights = [b.stats[key].mean for b in bars]
            errs = [b.stats[key].ci95 or 0.0 for b in bars]
            multi = any(b.seeds > 1 for b in bars)
            ax.bar([x + (k - 1) * width for x in xs], heights, width,
                   yerr=errs if multi else None, capsize=2 if multi else 0,
                   label=legend, color=color, edgecolor="black", linewidth=0.4)
        offered = [b.offered for b in bars if b.offered is not None]
        if offered:
            ax.axhline(sum(offered) / len(offered), color="black", linestyle="--",
                       linewidth=0.8, label="offered load")
        ax.set_xticks(xs)
        ax.set_xticklabels([b.label for b in bars], rotation=30, ha="right")
        ax.set_ylabel("injected load\n(phits/node/cycle)")
        ax.set_title(setting if n > 1 else "")
        ax.grid(True, axis="y", linewidth=0.3)
        ax.set_ylim(0, top or None)
        if row == 0:
            ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False)
    fig.suptitle(title)
    fig.tight_layout()
    return fig


def default_title(groups, pattern, load):
    sel = dr.filter_groups(groups, pattern=pattern, load=load)
    g = sel[0]
    settings = dr.settings_of(sel)
    tail = (", " + settings[0]) if len(settings) == 1 else ""
    return ("Injected load per router of group 0: %s, offered %s, h=%d (%d nodes)%s"
            % (pattern, fc.fmt_load(load), g.h, g.records[0].doc["network"]["nodes"], tail))


def main(argv=None):
    p = fc.base_parser(__doc__, "plots/out/injection.png")
    fc.add_filters(p, load=True)
    args = p.parse_args(argv)
    groups = dr.filter_groups(dr.load_groups(args.inputs), variants=args.variant,
                              settings=args.setting)
    pattern, load = dr.choose_traffic_point(groups, args.pattern, args.load)
    fig = draw_injection(injection_panels(groups, pattern, load),
                         args.title or default_title(groups, pattern, load))
    return fc.save_figure(fig, args.output, args.pdf)


if __name__ == "__main__":
    sys.exit(fc.run_main(main))
