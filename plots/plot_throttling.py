#!/usr/bin/python3
"""The throttling study's figure and table (conf/sweeps/quick_throttling.cfg, throttling.cfg):
variants named APP_MECHANISM (lattice_none, md_aimd_c, ...), every point run with sim.isolate.

  figure  runtime increase (runtime / runtime alone) box plots, a panel per application, a box
          per mechanism; the congestor's own (job --congestor, default a2a) in a last panel
  table   (Markdown, on stdout) per application x mechanism over the points (seeds,
          placements): the median and 99th percentile (nearest rank) of the application's
          runtime increase; the congestor's median runtime slowdown (an open-ended congestor's:
          its mean round over one round alone, "-" when its rounds outlast the application)
          and its median message-latency slowdown; the workload's node-cycles increase; the
          network's packet latency p50 and p95 and its accepted load (medians over the points);
          the application's stall fraction; and the points where the application did not
          finish

    plots/plot_throttling.py results/quick_throttling -o plots/out/quick_throttling.png
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import figure_common as fc  # noqa: E402  (sets the Agg backend first)
import dfsim_results as dr  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402

MECHANISMS = ["none", "static", "aimd", "aimd_c"]
LABELS = {"none": "none", "static": "static", "aimd": "AIMD c=0", "aimd_c": "AIMD c"}
# A swept cap is named static_RATE (conf/sweeps/throttling_cap.cfg); "static" is the cap 0.3.


def is_mechanism(m):
    return m in MECHANISMS or (m.startswith("static_") and _cap(m) is not None)


def _cap(m):
    try:
        return float(m[len("static_"):])
    except ValueError:
        return None


def mechanisms_of(data):
    """The mechanisms present, in reading order: none, the caps by rate, AIMD, AIMD c."""
    present = {m for _, m in data}
    caps = [(0.3, "static")] if "static" in present else []
    caps += [(_cap(m), m) for m in present if m.startswith("static_")]
    return (["none"] if "none" in present else []) + [m for _, m in sorted(caps)] + \
        [m for m in ("aimd", "aimd_c") if m in present]


def label(m, mechanisms=()):
    """A swept cap reads "static RATE", and so does the study's cap 0.3 beside them."""
    if m == "static" and any(x.startswith("static_") for x in mechanisms):
        return "static 0.3"
    return LABELS.get(m) or "static %g" % _cap(m)


def collect(paths, app="app", congestor="a2a"):
    """{(application, mechanism): {"app": [...], "congestor": [...], "node_cycles": [...],
    "unfinished": n}} from the points' documents."""
    data = {}
    for path in dr.find_result_files(paths):
        if os.path.basename(path) == "sweep.json":
            continue
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        variant = (doc.get("sweep") or {}).get("variant") or ""
        name, _, mech = variant.partition("_")
        if not is_mechanism(mech) or "jobs" not in doc:
            continue
        cell = data.setdefault((name, mech), {"app": [], "congestor": [], "node_cycles": [],
                                              "congestor_latency": [], "latency_p50": [],
                                              "latency_p95": [], "accepted": [], "stall": [],
                                              "unfinished": 0})
        jobs = {j["name"]: j for j in doc["jobs"]}
        slow = {k: (jobs[k].get("slowdown") or {}).get("runtime") for k in (app, congestor)
                if k in jobs}
        if not slow.get(app):
            cell["unfinished"] += 1
        if congestor in jobs and (jobs[congestor].get("slowdown") or {}).get("message_latency"):
            cell["congestor_latency"].append(jobs[congestor]["slowdown"]["message_latency"])
        if app in jobs and jobs[app].get("stall_fraction") is not None:
            cell["stall"].append(jobs[app]["stall_fraction"])
        lat = doc.get("latency") or {}
        if lat.get("p50") is not None:
            cell["latency_p50"].append(lat["p50"])
            cell["latency_p95"].append(lat["p95"])
        if (doc.get("load") or {}).get("accepted") is not None:
            cell["accepted"].append(doc["load"]["accepted"])
        if slow.get(app):
            cell["app"].append(slow[app])
            seed = ((doc.get("sweep") or {}).get("point") or {}).get("sim.seed")
            alone = (jobs[app].get("alone") or {}).get("runtime_cycles")
            if jobs[app].get("runtime_cycles") and alone:
                cell.setdefault("runs", []).append((seed, jobs[app]["runtime_cycles"], alone))
        if slow.get(congestor):
            cell["congestor"].append(slow[congestor])
        inc = doc.get("run", {}).get("node_cycles_increase")
        if inc:
            cell["node_cycles"].append(inc)
    if not data:
        raise dr.ResultError("no throttling study points (variants APP_MECHANISM) in %s"
                             % ", ".join(paths))
    return data


def rebase_unthrottled(data):
    """The application's runtime over its runtime alone *unthrottled* (the APP_none point of
    the same seed: same placement), instead of alone under the same mechanism: a cap slows the
    job alone too, which its own ratio hides. Points without a none twin are dropped."""
    for (a, m), cell in data.items():
        alone = {seed: base for seed, _, base in data.get((a, "none"), {}).get("runs", [])}
        cell["app"] = [run / alone[seed] for seed, run, _ in cell.get("runs", [])
                       if seed in alone]
    return data


def apps_of(data):
    order = ["lattice", "md", "amg"]
    names = sorted({a for a, _ in data}, key=lambda a: (order.index(a) if a in order else 9, a))
    return names


def fmt(x):
    return "-" if x is None else "%.2f" % x


def table(data):
    rows = ["| application | mechanism | points | runtime increase p50 | p99 | congestor p50 | "
            "congestor message latency p50 | node-cycles increase p50 | network latency p50 / "
            "p95 | accepted load | app stall fraction | app not finished |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for a in apps_of(data):
        for m in mechanisms_of(data):
            c = data.get((a, m))
            if not c:
                continue
            med = {k: dr.quantile(c[k], 50) for k in ("latency_p50", "latency_p95")}
            lat = ("-" if med["latency_p50"] is None
                   else "%.0f / %.0f" % (med["latency_p50"], med["latency_p95"]))
            acc = dr.quantile(c["accepted"], 50)
            stall = dr.quantile(c["stall"], 50)
            rows.append("| %s | %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %d |" % (
                a, label(m, mechanisms_of(data)), len(c["app"]), fmt(dr.quantile(c["app"], 50)),
                fmt(dr.quantile(c["app"], 99)), fmt(dr.quantile(c["congestor"], 50)),
                fmt(dr.quantile(c["congestor_latency"], 50)),
                fmt(dr.quantile(c["node_cycles"], 50)), lat,
                "-" if acc is None else "%.3f" % acc, "-" if stall is None else "%.3f" % stall,
                c["unfinished"]))
    return "\n".join(rows)


def figure(data, title=None, congestor="a2a", congestor_panel=True):
    apps = apps_of(data)
    n = len(apps) + (1 if congestor_panel else 0)
    fig, axes = plt.subplots(1, n, figsize=(max(3.2 * n, 6.4), 3.6), squeeze=False)
    panels = [(a, "app") for a in apps] + ([(None, "congestor")] if congestor_panel else [])
    for ax, (a, key) in zip(axes[0], panels):
        boxes, labels = [], []
        for m in mechanisms_of(data):
            if a is None:  # the congestor: every application's points together
                values = [v for (x, mm), c in sorted(data.items()) if mm == m for v in c[key]]
            else:
                values = data.get((a, m), {}).get(key, [])
            if values:
                boxes.append(values)
                labels.append(label(m, mechanisms_of(data)))
        if boxes:
            ax.boxplot(boxes, whis=(0, 100))
            ax.set_xticks(range(1, len(labels) + 1))
            ax.set_xticklabels(labels, rotation=30)
        ax.set_title(a if a else "congestor (%s)" % congestor)
        ax.axhline(1.0, color="0.6", linewidth=0.8)
        ax.grid(axis="y", alpha=0.3)
    axes[0][0].set_ylabel("runtime / runtime alone")
    fig.suptitle(title or "Runtime increase under a congestor, by throttling mechanism")
    fig.tight_layout()
    return fig


def main(argv=None):
    p = fc.base_parser(__doc__.split("\n\n")[0], "plots/out/throttling.png")
    p.add_argument("--app", default="app", help="the application's job name (default app)")
    p.add_argument("--congestor", default="a2a",
                   help="the closed-loop congestor's job name (default a2a)")
    p.add_argument("--unthrottled-baseline", action="store_true",
                   help="divide the application's runtime by its runtime alone without a "
                        "throttle (the APP_none point of the same seed)")
    p.add_argument("--no-congestor-panel", action="store_true",
                   help="only the applications' panels (where the congestor has no runtime "
                        "slowdown, its rounds outlasting the application)")
    args = p.parse_args(argv)
    data = collect(args.inputs, args.app, args.congestor)
    if args.unthrottled_baseline:
        data = rebase_unthrottled(data)
    print(table(data))
    return fc.save_figure(figure(data, args.title, args.congestor, not args.no_congestor_panel),
                          args.output, args.pdf)


if __name__ == "__main__":
    sys.exit(fc.run_main(main))
