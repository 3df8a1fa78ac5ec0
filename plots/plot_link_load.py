#!/usr/bin/python3
"""Link load of one run (stats.link_load = true): the global links as a group-by-group heat map
(row: the group a link leaves, column: the group it reaches; phits per cycle, summed over the
links of a pair) and the local links of one group as a router-by-router heat map, with the
per-class mean, max and Jain index from the document.

    ./dfsim run conf/paper_h6.cfg --set traffic.pattern=ADVc --set stats.link_load=true -o advc.json
    plots/plot_link_load.py advc.json --group 0 -o plots/out/link_load_advc.png
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import figure_common as fc  # noqa: E402  (sets the Agg backend first)
import dfsim_results as dr  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


class LinkLoad:
    """The matrices of one document: global[g][h] (phits/cycle from group g to group h) and
    local[i][j] (from router i to router j of the chosen group, numbered inside it)."""

    def __init__(self, doc, group=0):
        if "link_load" not in doc:
            raise dr.ResultError("the document has no link_load (run with "
                                 "--set stats.link_load=true)")
        net = doc["network"]
        self.groups = net["groups"]
        self.routers = net["routers"]
        if self.routers % self.groups:
            raise dr.ResultError("groups of different sizes: cannot lay out the heat maps")
        self.per_group = self.routers // self.groups
        if not 0 <= group < self.groups:
            raise dr.ResultError("--group %d: the network has groups 0..%d"
                                 % (group, self.groups - 1))
        self.group = group
        self.cycles = self.measured_cycles(doc)
        ll = doc["link_load"]
        self.summary = {c: (ll[c]["links"], ll[c]["mean"], ll[c]["max"], ll[c]["jain"])
                        for c in ("node", "local", "global")}
        self.global_ = [[0.0] * self.groups for _ in range(self.groups)]
        g = ll["global"]
        for src, dst, phits in zip(g["from"], g["to"], g["phits"]):
            self.global_[src // self.per_group][dst // self.per_group] += phits / self.cycles
        self.local = [[0.0] * self.per_group for _ in range(self.per_group)]
        first = group * self.per_group
        loc = ll["local"]
        for src, dst, phits in zip(loc["from"], loc["to"], loc["phits"]):
            if src // self.per_group == group:
                self.local[src - first][dst - first] += phits / self.cycles
        self.title = self.describe(doc)

    @staticmethod
    def measured_cycles(doc):
        if "run" in doc:
            return doc["run"]["measured_cycles"]
        return doc["config"]["sim"]["measure_cycles"]

    @staticmethod
    def describe(doc):
        cfg = doc["config"]
        return "%s, %s, load %s, h=%d (%d nodes)" % (
            dr.pattern_label(cfg), dr.routing_label(cfg), fc.fmt_load(cfg["traffic"]["load"]),
            cfg["topology"]["h"], doc["network"]["nodes"])


def draw_link_load(ll, title, vmax=1.0):
    fig, (ax_g, ax_l) = plt.subplots(1, 2, figsize=(12.0, 5.8),
                                     gridspec_kw={"width_ratios": [1.25, 1]})
    masked = [[None if i == j else v for j, v in enumerate(row)]
              for i, row in enumerate(ll.global_)]
    cmap = plt.get_cmap("viridis").copy()
    cmap.set_bad("white")
    img = ax_g.imshow(np.array(masked, dtype=float), cmap=cmap, vmin=0, vmax=vmax,
                      interpolation="nearest", origin="upper")
    ax_g.set_xlabel("to group")
    ax_g.set_ylabel("from group")
    n, mean, peak, jain = ll.summary["global"]
    ax_g.set_title("global links (%d): mean %.3f, max %.3f, Jain %.3f" % (n, mean, peak, jain))
    fig.colorbar(img, ax=ax_g, fraction=0.046, pad=0.03, label="phits/cycle")
    local = np.array([[None if i == j else v for j, v in enumerate(row)]
                      for i, row in enumerate(ll.local)], dtype=float)
    img = ax_l.imshow(local, cmap=cmap, vmin=0, vmax=vmax, interpolation="nearest",
                      origin="upper")
    a = ll.per_group
    ticks = list(range(a))
    labels = [str(i) for i in ticks]
    labels[0] = "0 R_in"
    labels[-1] = "%d R_out" % (a - 1)
    ax_l.set_xticks(ticks)
    ax_l.set_yticks(ticks)
    ax_l.set_xticklabels(labels, rotation=90)
    ax_l.set_yticklabels(labels)
    ax_l.set_xlabel("to router (of group %d)" % ll.group)
    ax_l.set_ylabel("from router")
    n, mean, peak, jain = ll.summary["local"]
    ax_l.set_title("local links of group %d; all %d: mean %.3f, max %.3f, Jain %.3f"
                   % (ll.group, n, mean, peak, jain))
    fig.colorbar(img, ax=ax_l, fraction=0.046, pad=0.03, label="phits/cycle")
    fig.suptitle(title)
    fig.tight_layout(rect=(0, 0.02, 1, 0.95))
    return fig


def main(argv=None):
    p = fc.base_parser(__doc__, "plots/out/link_load.png")
    p.add_argument("--group", type=int, default=0, help="the group whose local links to show "
                                                        "(default 0)")
    p.add_argument("--vmax", type=float, default=1.0,
                   help="top of the colour scale, phits/cycle (default 1: a link of "
                        "bandwidth 1 carrying all it can)")
    args = p.parse_args(argv)
    if len(args.inputs) != 1:
        raise dr.ResultError("one result document at a time")
    ll = LinkLoad(dr.load_document(args.inputs[0]), args.group)
    fig = draw_link_load(ll, args.title or ll.title, args.vmax)
    for c in ("node", "local", "global"):
        n, mean, peak, jain = ll.summary[c]
        print("%-6s links %6d  mean %.4f  max %.4f  Jain %.4f  (phits/cycle)"
              % (c, n, mean, peak, jain))
    return fc.save_figure(fig, args.output, args.pdf)


if __name__ == "__main__":
    sys.exit(fc.run_main(main))
