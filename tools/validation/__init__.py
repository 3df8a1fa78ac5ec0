"""Helpers shared by the peer modules of the validation suite (tools/validate.py).

A peer module (tools/validation/<peer>.py) defines PEER, TOLERANCES, points(quick) and
report(results, out_dir); see tools/validate.py. It may also define compare(point, doc), which
returns the checks of one point as a list of dicts
    {"metric", "peer", "dfsim", "diff_pct", "tolerance_pct"}
(tolerance_pct None: shown, not asserted). Without compare() the quick test uses
generic_compare() below: every key of TOLERANCES that the point's "peer" dict holds is compared
with the dfsim figure of the same name (DFSIM_FIGURES).
"""
import csv
import math
import os
import statistics

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def peer_file(name):
    """Path of a file under results/validation/peers/ (the peer measurements)."""
    return os.path.join(ROOT, "results", "validation", "peers", name)


def read_csv(name):
    with open(peer_file(name), newline="") as f:
        return list(csv.DictReader(f))


def num(x):
    """A CSV cell as a float (None if empty or not a number; 'inf' stays inf)."""
    if x is None:
        return None
    try:
        v = float(x)
    except (TypeError, ValueError):
        return None
    return v


def fmt_setting(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return repr(v)
    return str(v)


def dfsim_figures(doc):
    """The dfsim figures the peers report, from a result document (None: failed run)."""
    if not doc:
        return {}
    lat = doc.get("latency", {})
    br = lat.get("breakdown", {})
    fair = doc.get("fairness", {})
    hops = doc.get("hops", {})
    mean = lat.get("mean")
    out = {
        "offered": doc["load"]["offered"],
        "injected": doc["load"]["injected"],
        "accepted": doc["load"]["accepted"],
        "latency": mean,
        "net_latency": (mean - br.get("injection_queue", 0.0)) if mean is not None else None,
        "inj_latency": br.get("injection_queue"),
        "min_inj_load": fair.get("min_injected_load"),
        "maxmin": fair.get("max_min"),
        "cov": fair.get("cov"),
        "hops": (hops.get("local", 0) + hops.get("global", 0)) if hops else None,
        "misrouted_global": doc.get("misrouted", {}).get("global"),
        "wall_s": doc.get("timing", {}).get("wall_seconds"),
    }
    return out


DFSIM_FIGURES = ("accepted", "latency", "net_latency", "min_inj_load", "maxmin", "cov")


def diff_pct(dfsim, peer):
    """(dfsim - peer) / peer in %, None where undefined."""
    if dfsim is None or peer is None:
        return None
    if isinstance(peer, float) and (math.isinf(peer) or math.isnan(peer)):
        return None
    if peer == 0:
        return None
    return 100.0 * (dfsim - peer) / peer


def check(metric, peer, dfsim, tol):
    """One compared figure of a point: its values, their difference in %, and the tolerance in %
    the quick test asserts (None: shown, not asserted)."""
    return {"metric": metric, "peer": peer, "dfsim": dfsim, "diff_pct": diff_pct(dfsim, peer),
            "tolerance_pct": tol}


def compared_label(peer, doc, class_note):
    """The `compared` column of a point: yes (saturated / knee) for the same set-up, apart with
    the reason for another, no when dfsim's run failed."""
    if not doc:
        return "no: dfsim run failed"
    if peer["class"] == "same":
        return "yes" + (" (saturated)" if peer["saturated"] else
                        " (knee)" if peer["knee"] else "")
    return "apart: " + class_note[peer["class"]]


def agreement(rows):
    """The agreement figures of a group of table rows (diff_accepted, diff_latency, saturated,
    knee, noise_pct): accepted load below and past saturation, latency below it (the knee's
    left out), and how many below-saturation points differ beyond sampling noise."""
    carried = [r for r in rows if not r["saturated"] and r["dfsim_accepted"] is not None]
    below = [r for r in carried if not r["knee"]]
    above = [r for r in rows if r["saturated"] and r["dfsim_accepted"] is not None]
    return {
        "rows": len(rows),
        "accepted_below_saturation": stats([r["diff_accepted"] for r in carried]),
        "accepted_below_saturation_beyond_noise": sum(
            abs(r["diff_accepted"]) > r["noise_pct"] for r in carried),
        "latency_below_saturation": stats([r["diff_latency"] for r in below]),
        "accepted_past_saturation": stats([r["diff_accepted"] for r in above]),
    }, below


def count_checks(compare, results):
    """How many asserted checks the points have, and how many are within their tolerance."""
    checks = [c for pt, doc in results for c in compare(pt, doc)
              if c["tolerance_pct"] is not None and c["diff_pct"] is not None]
    return {"checks_within_tolerance": sum(abs(c["diff_pct"]) <= c["tolerance_pct"]
                                           for c in checks),
            "checks": len(checks)}


def generic_compare(module, point, doc):
    """Checks of one point for modules without compare(): see the module docstring."""
    figs = dfsim_figures(doc)
    checks = []
    for metric, tol in getattr(module, "TOLERANCES", {}).items():
        if metric not in point.get("peer", {}) or metric not in figs:
            continue
        pct = tol["pct"] if isinstance(tol, dict) else tol
        p, d = point["peer"][metric], figs[metric]
        checks.append({"metric": metric, "peer": p, "dfsim": d, "diff_pct": diff_pct(d, p),
                       "tolerance_pct": pct})
    return checks


def sampling_noise_pct(nodes, cycles, load, packet_size=8):
    """Two standard deviations, in %, of the difference between two independent Bernoulli
    sources' accepted loads over a window: each counts about nodes*cycles*load/packet_size
    packets, so each is off by 1/sqrt(packets) (relative), the difference by sqrt(2) times."""
    packets = nodes * cycles * load / packet_size
    return 200.0 * math.sqrt(2.0 / packets) if packets > 0 else None


def stats(values):
    """median and max of |values| (None dropped), and their count."""
    vals = [abs(v) for v in values if v is not None]
    if not vals:
        return {"n": 0, "median_abs_pct": None, "max_abs_pct": None}
    return {"n": len(vals), "median_abs_pct": round(statistics.median(vals), 2),
            "max_abs_pct": round(max(vals), 2)}


def cell(v, digits=3):
    if v is None or v == "":
        return ""
    if isinstance(v, str):
        return v
    if isinstance(v, float):
        if math.isinf(v):
            return "inf"
        if abs(v) >= 100:
            return f"{v:.0f}" if abs(v) >= 1000 else f"{v:.1f}"
        return f"{v:.{digits}f}"
    return str(v)


def pct_cell(v):
    return "" if v is None else f"{v:+.1f}"


def write_table(out_dir, columns, rows, title, intro_lines, name="table"):
    """out_dir/<name>.csv (every column, raw values) and out_dir/<name>.md (same rows).
    columns: (key, header[, kind]) with kind "num" (3 decimals, the default), "num4" (4),
    "pct" (signed, 1 decimal) or "str"."""
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, name + ".csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow([c[0] for c in columns])
        for r in rows:
            w.writerow(["" if r.get(c[0]) is None else
                        (f"{r[c[0]]:.6g}" if isinstance(r.get(c[0]), float) else r[c[0]])
                        for c in columns])
    with open(os.path.join(out_dir, name + ".md"), "w") as f:
        f.write(f"# {title}\n\n")
        for line in intro_lines:
            f.write(line + "\n")
        f.write("\n| " + " | ".join(c[1] for c in columns) + " |\n")
        f.write("|" + "---|" * len(columns) + "\n")
        for r in rows:
            vals = []
            for c in columns:
                v = r.get(c[0])
                kind = c[2] if len(c) > 2 else "num"
                vals.append(pct_cell(v) if kind == "pct" else
                            cell(v, 4) if kind == "num4" else cell(v))
            f.write("| " + " | ".join(vals) + " |\n")


COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
           "#7f7f7f", "#17becf", "#bcbd22"]


def overlay(path, title, panels, routings):
    """One figure of side-by-side panels; each panel: dict(title, xlabel, ylabel, curves,
    logy=False), each curve: dict(routing, source in {"peer","dfsim"}, x, y, label).
    Same colour per routing in every panel; the peer dashed with open markers, dfsim solid."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    colour = {r: COLOURS[i % len(COLOURS)] for i, r in enumerate(routings)}
    fig, axes = plt.subplots(1, len(panels), figsize=(5.2 * len(panels), 4.0), squeeze=False)
    for ax, panel in zip(axes[0], panels):
        for c in panel["curves"]:
            pts = sorted((x, y) for x, y in zip(c["x"], c["y"]) if y is not None)
            if not pts:
                continue
            xs, ys = zip(*pts)
            peer = c["source"] == "peer"
            ax.plot(xs, ys, linestyle="--" if peer else "-", marker="o",
                    markerfacecolor="none" if peer else colour[c["routing"]],
                    color=colour[c["routing"]], linewidth=1.2, markersize=4,
                    label=c.get("label"))
        if panel.get("logy"):
            ax.set_yscale("log")
        ax.set_title(panel["title"], fontsize=10)
        ax.set_xlabel(panel["xlabel"])
        ax.set_ylabel(panel["ylabel"])
        ax.grid(True, alpha=0.3)
        if panel.get("diagonal"):
            lim = max(max(c["x"]) for c in panel["curves"] if c["x"])
            ax.plot([0, lim], [0, lim], color="0.7", linewidth=0.8, zorder=0)
    handles, labels = [], []
    for ax in axes[0]:
        for hnd, lab in zip(*ax.get_legend_handles_labels()):
            if lab and lab not in labels:
                handles.append(hnd)
                labels.append(lab)
    fig.legend(handles, labels, loc="lower center", ncol=min(len(labels), 5), fontsize=8,
               frameon=False)
    fig.suptitle(title, fontsize=11)
    fig.tight_layout(rect=(0, 0.05 + 0.035 * ((len(labels) - 1) // 5), 1, 0.95))
    fig.savefig(path, dpi=90)
    plt.close(fig)
