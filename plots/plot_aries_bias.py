#!/usr/bin/python3
"""The Aries routing-bias study's figure and table (conf/sweeps/aries_bias.cfg): variants
named MOTIF-SIZEB-BACKGROUND-MODE, the closed-loop job `app`'s per-iteration times
(iterations.job_cycles: each iteration of the job, to the end of its slowest rank's).

  figure  per-iteration time box plots (whiskers min to max) normalised to the median of
          adaptive_0's iterations (every seed pooled) of the same (motif, size, background);
          one panel per background, a group of boxes per (motif, size), a box per mode
  table   (Markdown, on stdout) the median normalised iteration time per motif x size x
          background x mode, app_aware's fraction of request packets in the default mode,
          and the points whose app did not finish
  --full  the full-size study's table (conf/sweeps/aries_bias_full.cfg: every mode, the
          ablations without the far-end estimate and with intra-group detours): per case and
          mode the median iteration time (cycles, and over adaptive_0's), the QCD
          (Q3 - Q1) / (Q3 + Q1) of the iteration times, the NIC's s and L, the fractions of
          the app's packets misrouted over a global link, sent by a nonminimal decision, and
          by a phantom one (routers/README.md)

    plots/plot_aries_bias.py results/aries_bias -o plots/figures/aries_bias.png
    plots/plot_aries_bias.py results/aries_bias_full --full -o plots/figures/aries_bias_full.png
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import figure_common as fc  # noqa: E402  (sets the Agg backend first)
import dfsim_results as dr  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402

MODES = ["adaptive_0", "adaptive_3", "app_aware"]
# the full-size study's modes, in its table's order
FULL_MODES = ["adaptive_0", "adaptive_1", "adaptive_2", "adaptive_3", "app_aware",
              "adaptive_0_nofar", "adaptive_3_nofar", "adaptive_0_intra", "adaptive_3_intra"]
BASELINE = "adaptive_0"
BACKGROUNDS = ["none", "uniform_0.3", "uniform_0.6", "group_pair_0.3", "group_pair_0.6"]
MOTIFS = ["pingpong_intra", "pingpong_inter", "allreduce", "alltoall", "barrier", "broadcast",
          "halo3d", "sweep3d"]
COLORS = {"adaptive_0": "tab:blue", "adaptive_3": "tab:orange", "app_aware": "tab:green",
          "adaptive_1": "tab:purple", "adaptive_2": "tab:brown", "adaptive_0_nofar": "tab:cyan",
          "adaptive_3_nofar": "tab:olive", "adaptive_0_intra": "tab:pink",
          "adaptive_3_intra": "tab:gray"}


def parse_variant(name):
    """(motif, size in bytes, background, mode) of MOTIF-SIZEB-BACKGROUND-MODE, or None."""
    parts = name.split("-")
    if len(parts) != 4 or not parts[1].endswith("B") or not parts[1][:-1].isdigit():
        return None
    if parts[3] not in FULL_MODES:
        return None
    return parts[0], int(parts[1][:-1]), parts[2], parts[3]


def collect(paths, job="app"):
    """{(motif, size, background): {mode: {"cycles": [...], "fraction_default": [...],
    "unfinished": n}}} from the points' documents."""
    data = {}
    for path in dr.find_result_files(paths):
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        key = parse_variant((doc.get("sweep") or {}).get("variant") or "")
        if key is None or "jobs" not in doc:
            continue
        jobs = {j["name"]: j for j in doc["jobs"]}
        if job not in jobs:
            continue
        j = jobs[job]
        cell = data.setdefault(key[:3], {}).setdefault(
            key[3], {"cycles": [], "fraction_default": [], "unfinished": 0, "s": [], "L": [],
                     "misrouted_global": [], "nonminimal": [], "phantom": []})
        if not j.get("finished"):
            cell["unfinished"] += 1
        cell["cycles"].extend((j.get("iterations") or {}).get("job_cycles") or [])
        sel = j.get("selector")
        if sel:
            cell["fraction_default"].append(sel["fraction_default"])
        nic = j.get("nic") or {}
        for k in ("s", "L"):
            if nic.get(k) is not None:
                cell[k].append(nic[k])
        routing = j.get("routing") or {}
        if routing.get("misrouted_global") is not None:
            cell["misrouted_global"].append(routing["misrouted_global"])
        decisions = j.get("misrouted") or {}
        if decisions.get("nonminimal_decisions") is not None:
            cell["nonminimal"].append(decisions["nonminimal_decisions"])
            cell["phantom"].append(decisions["phantom"])
    if not data:
        raise dr.ResultError("no aries_bias points (variants MOTIF-SIZEB-BACKGROUND-MODE) in %s"
                             % ", ".join(paths))
    return data


def normalised(data):
    """{(motif, size, background): {mode: [iteration time / adaptive_0's median]}}; cells
    without adaptive_0 iterations are left out."""
    out = {}
    for key, modes in data.items():
        base = dr.quantile(modes.get(BASELINE, {}).get("cycles", []), 50)
        if not base:
            continue
        out[key] = {m: [c / base for c in cell["cycles"]] for m, cell in modes.items()}
    return out


def cell_order(keys):
    def k(key):
        motif, size, bg = key
        return (MOTIFS.index(motif) if motif in MOTIFS else len(MOTIFS), motif, size)
    return sorted({(m, s) for m, s, _ in keys}, key=lambda ms: k(ms + ("",)))


def backgrounds_of(data):
    """The backgrounds of the cells: the study's in its order, then any other by name."""
    return sorted({k[2] for k in data},
                  key=lambda b: (BACKGROUNDS.index(b) if b in BACKGROUNDS else len(BACKGROUNDS),
                                 b))


def fmt(x):
    return "-" if x is None else "%.2f" % x


def size_label(size):
    if size == 0:
        return "0"
    return "%dK" % (size // 1024) if size % 1024 == 0 else "%d" % size


def table(data):
    norm = normalised(data)
    bgs = backgrounds_of(data)
    rows = ["| motif | size (B) | background | adaptive_0 median (cycles) | adaptive_0 | "
            "adaptive_3 | app_aware | app_aware default-mode fraction | not finished |",
            "|---|---:|---|---:|---:|---:|---:|---:|---:|"]
    for motif, size in cell_order(data):
        for bg in bgs:
            key = (motif, size, bg)
            if key not in data:
                continue
            modes = data[key]
            med = {m: dr.quantile(norm.get(key, {}).get(m, []), 50) for m in MODES}
            frac = modes.get("app_aware", {}).get("fraction_default", [])
            unfinished = sum(c["unfinished"] for c in modes.values())
            rows.append("| %s | %d | %s | %s | %s | %s | %s | %s | %d |" % (
                motif, size, bg, fmt(dr.quantile(modes.get(BASELINE, {}).get("cycles", []), 50))
                .replace(".00", ""), fmt(med["adaptive_0"]), fmt(med["adaptive_3"]),
                fmt(med["app_aware"]), fmt(sum(frac) / len(frac)) if frac else "-",
                unfinished))
    return "\n".join(rows)


def wide_table(data):
    """A row per (motif, size): adaptive_0's median iteration without background, then per
    background "adaptive_3 / app_aware" median normalised times (adaptive_0 is 1 by
    construction)."""
    norm = normalised(data)
    bgs = backgrounds_of(data)
    rows = ["| motif | size (B) | adaptive_0, no bg (cycles) | " + " | ".join(bgs) + " |",
            "|---|---:|---:|" + "---:|" * len(bgs)]
    for motif, size in cell_order(data):
        base = dr.quantile(data.get((motif, size, "none"), {}).get(BASELINE, {}).get("cycles", []),
                        50)
        cells = []
        for bg in bgs:
            med = [dr.quantile(norm.get((motif, size, bg), {}).get(m, []), 50)
                   for m in ("adaptive_3", "app_aware")]
            cells.append("%s / %s" % (fmt(med[0]), fmt(med[1])))
        rows.append("| %s | %d | %s | %s |" % (motif, size, "-" if base is None else
                                                "%d" % base, " | ".join(cells)))
    return "\n".join(rows)


def qcd(values):
    """(Q3 - Q1) / (Q3 + Q1), nearest-rank quartiles; None without values."""
    q1, q3 = dr.quantile(values, 25), dr.quantile(values, 75)
    return None if q1 is None or q1 + q3 == 0 else (q3 - q1) / (q3 + q1)


def full_table(data):
    """A row per (motif, size, background) x mode, the modes in FULL_MODES' order."""
    norm = normalised(data)
    rows = ["| case | mode | median (cycles) | / adaptive_0 | QCD | s | L (cycles) | "
            "misrouted global | nonminimal decisions | phantom | not finished |",
            "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]

    def mean(v):
        return sum(v) / len(v) if v else None

    def frac(v):
        m = mean(v)
        return "-" if m is None else "%.3f" % m
    for motif, size in cell_order(data):
        for bg in backgrounds_of(data):
            modes = data.get((motif, size, bg))
            if not modes:
                continue
            for mode in [m for m in FULL_MODES if m in modes]:
                c = modes[mode]
                med = dr.quantile(c["cycles"], 50)
                rows.append("| %s %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %d |" % (
                    motif, size_label(size), mode, "-" if med is None else "%d" % med,
                    fmt(dr.quantile(norm.get((motif, size, bg), {}).get(mode, []), 50)),
                    "-" if qcd(c["cycles"]) is None else "%.3f" % qcd(c["cycles"]),
                    "-" if mean(c["s"]) is None else "%.3f" % mean(c["s"]),
                    "-" if mean(c["L"]) is None else "%.0f" % mean(c["L"]),
                    frac(c["misrouted_global"]), frac(c["nonminimal"]), frac(c["phantom"]),
                    c["unfinished"]))
    return "\n".join(rows)


def figure(data, title=None, modes=MODES):
    norm = normalised(data)
    bgs = backgrounds_of(norm)
    cells = cell_order(norm)
    fig, axes = plt.subplots(len(bgs), 1, figsize=(max(8, 0.75 * len(cells) + 2),
                                                   2.8 * len(bgs)), squeeze=False)
    present = {m for cell in norm.values() for m in cell}
    modes = [m for m in modes if m in present]
    width = 0.8 / len(modes)
    for ax, bg in zip(axes[:, 0], bgs):
        for i, mode in enumerate(modes):
            boxes, positions = [], []
            for x, (motif, size) in enumerate(cells):
                values = norm.get((motif, size, bg), {}).get(mode, [])
                if values:
                    boxes.append(values)
                    positions.append(x + (i - (len(modes) - 1) / 2) * width)
            if not boxes:
                continue
            bp = ax.boxplot(boxes, positions=positions, widths=width * 0.9, whis=(0, 100),
                            patch_artist=True, manage_ticks=False)
            for patch in bp["boxes"]:
                patch.set_facecolor(COLORS[mode])
                patch.set_alpha(0.7)
            for median in bp["medians"]:
                median.set_color("black")
            if ax is axes[0, 0]:
                ax.plot([], [], color=COLORS[mode], linewidth=6, alpha=0.7, label=mode)
        ax.set_xticks(range(len(cells)))
        ax.set_xticklabels(["%s\n%s" % (m.replace("pingpong_", "pp_"), size_label(s))
                            for m, s in cells], fontsize=7)
        ax.axhline(1.0, color="0.6", linewidth=0.8)
        ax.set_ylabel("iteration / median adaptive_0")
        ax.set_title("background: %s" % bg)
        ax.grid(axis="y", alpha=0.3)
    fig.suptitle(title or "Per-iteration time by routing mode, normalised to adaptive_0's median "
                 "(whiskers: min to max)")
    fig.legend(loc="upper right", ncol=min(len(modes), 5), fontsize=7)
    fig.tight_layout(rect=(0, 0, 1, 0.97))
    return fig


def main(argv=None):
    p = fc.base_parser(__doc__.split("\n\n")[0], "plots/figures/aries_bias.png")
    p.add_argument("--job", default="app", help="the closed-loop job's name (default app)")
    p.add_argument("--wide", action="store_true",
                   help="print the table as a row per (motif, size), a column per background")
    p.add_argument("--full", action="store_true",
                   help="the full-size study's table and figure: every mode, the ablations")
    args = p.parse_args(argv)
    data = collect(args.inputs, args.job)
    if args.full:
        print(full_table(data))
        return fc.save_figure(figure(data, args.title, FULL_MODES[:5]), args.output, args.pdf)
    print(wide_table(data) if args.wide else table(data))
    return fc.save_figure(figure(data, args.title), args.output, args.pdf)


if __name__ == "__main__":
    sys.exit(fc.run_main(main))
