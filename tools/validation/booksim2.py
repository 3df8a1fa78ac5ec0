"""BookSim2 (booksim/booksim2 28f4329) on dragonflynew k=3 (and the speed set's k=2..6): the
validation suite's peer module (tools/validate.py; provenance and mapping:
results/validation/peers/booksim2.md).

Points: every row of booksim2_k3.csv (MIN, UGAL stock and 4-VC, Valiant 4-VC and 3-VC; UN and
ADV+1; seeds 1 and 2, run with dfsim seeds 1 and 2) and of the speed set's booksim2_uniform.csv
and booksim2_adv1.csv (MIN and stock UGAL, k = 2..6), each with BookSim's windows. BookSim's
`ugal` and `ugal_4vc` (same rule, other VCs) share one dfsim run, as do `valiant_4vc` and
`valiant_3vc`. Rows run and shown outside the agreement figures:
  stock_ugal   stock `ugal` under ADV+1 from offered 0.3 on: its 3-VC assignment deadlocks, so
               its throughput falls during the window (compare ugal_4vc)
  valiant_3vc  the 3-VC Valiant variant made to show that deadlock
The speed set's k=8 row (a memory probe, not in the row files) is not compared.
"""
import os
import statistics

from validation import (agreement, check, compared_label, count_checks, dfsim_figures, diff_pct,
                        num, overlay, read_csv, sampling_noise_pct, stats, write_table)

PEER = "booksim2"

TOLERANCES = {
    "accepted": {"pct": 2.0, "why": "below saturation both carry the offered load; MIN under "
                 "ADV+1 saturates at the topology's 1/(a*p)"},
    "accepted_saturated": {"pct": 5.0, "why": "Valiant's saturation throughput depends on "
                           "allocator details (BookSim allocates once per cycle, wormhole)"},
    "latency": {"pct": 3.0, "why": "below saturation latency is links + router hops + "
                "serialization; router.latency 5 instead of 2 would add about 8 %"},
    "latency_ugal": {"pct": 6.0, "why": "UGAL's latency also depends on how many packets its "
                     "rule sends nonminimally; dfsim's cost reads the next VC, BookSim's the "
                     "whole port, so dfsim runs 3-5 % below BookSim under UN"},
}

# BookSim's UGAL-L: one minimal and one nonminimal candidate decided at the source; minimal iff
# q_min <= 2 q_nonmin + 30 flits, which with hop weights (3 minimal, about 6 nonminimal hops) is
# 3 q_min <= 6 q_nonmin + 90 (peers/booksim2.md). Set with the mechanism: a min or Valiant run
# does not read them.
UGAL_L = {"routing.mechanism": "ugal", "routing.ugal_min_candidates": 1,
          "routing.ugal_nonmin_candidates": 1, "routing.ugal_bias": 90,
          "routing.ugal_far_end": "none"}
ROUTING = {
    "min": ("min", {"routing.mechanism": "min"}),
    "ugal": ("ugal", UGAL_L),
    "ugal_4vc": ("ugal", UGAL_L),
    "valiant_4vc": ("valiant", {"routing.mechanism": "valiant",
                                "routing.valiant_target": "router"}),
    "valiant_3vc": ("valiant", {"routing.mechanism": "valiant",
                                "routing.valiant_target": "router"}),
}
LABEL = {"min": "MIN", "ugal": "UGAL (stock)", "ugal_4vc": "UGAL 4-VC",
         "valiant_4vc": "Valiant 4-VC", "valiant_3vc": "Valiant 3-VC"}
TRAFFIC = {"uniform": ("un", {"traffic.pattern": "uniform"}),
           "bad_dragon": ("adv1", {"traffic.pattern": "adversarial", "traffic.offset": 1})}
TRAFFIC_LABEL = {"uniform": "UN", "bad_dragon": "ADV+1"}
CLASS_NOTE = {"same": "", "stock_ugal": "stock UGAL deadlocks under ADV+1 (3 VCs)",
              "valiant_3vc": "3-VC Valiant deadlocks at saturation"}

# The quick subset (make test): (routing, traffic, offered) of booksim2_k3.csv, seed 1.
QUICK = [
    ("min", "uniform", "0.05"),         # zero-load latency: router.latency 2, links, wiring
    ("min", "bad_dragon", "0.1"),       # MIN saturates at 1/(a*p) = 0.0556
    ("valiant_4vc", "uniform", "0.3"),  # Valiant-to-a-router path length
    ("valiant_4vc", "bad_dragon", "0.5"),  # Valiant's saturation (about 0.447)
    ("ugal_4vc", "uniform", "0.3"),     # UGAL-L below saturation (latency between MIN and VAL)
]


def _size(k):
    k = int(k)
    return {"topology.p": k, "topology.a": 2 * k, "topology.h": k}


def _point(kset, k, routing, traffic, offered, seed, warmup, measured, peer):
    droute, rs = ROUTING[routing]
    tname, ts = TRAFFIC[traffic]
    s = {"sim.seed": seed, "sim.warmup_cycles": warmup, "sim.measure_cycles": measured,
         "traffic.load": float(offered)}
    if k != "3":
        s.update(_size(k))
    s.update(rs)
    s.update(ts)
    pid = f"k{k}-{tname}-{droute}-w{warmup}-m{measured}-l{offered.replace('.', '')}-s{seed}"
    klass = "same"
    if routing == "ugal" and traffic == "bad_dragon" and float(offered) >= 0.3:
        klass = "stock_ugal"
    if routing == "valiant_3vc":
        klass = "valiant_3vc"
    o = float(offered)
    acc = peer["accepted"]
    peer.update({"set": kset, "k": int(k), "routing": routing, "traffic": traffic,
                 "offered": o, "seed": seed, "class": klass, "saturated": acc < 0.97 * o,
                 "knee": acc >= 0.97 * o and peer["inj_latency"] is not None and
                 peer["inj_latency"] > 50,
                 "noise_pct": sampling_noise_pct(2 * int(k) ** 2 * (2 * int(k) ** 2 + 1),
                                                 measured, o)})
    return {"id": pid, "config": "conf/validation/booksim2_k3.cfg", "settings": s, "peer": peer}


def points(quick=False):
    pts, seen = [], set()
    for r in read_csv("booksim2_k3.csv"):
        key = (r["routing"], r["traffic"], r["offered_flits_per_node_cycle"], r["seed"])
        if key in seen:  # the file repeats a few rows
            continue
        seen.add(key)
        if quick and (r["seed"] != "1" or key[:3] not in QUICK):
            continue
        lat, net = num(r["latency_mean_cycles"]), num(r["network_latency_mean_cycles"])
        peer = {"accepted": num(r["accepted_flits_per_node_cycle"]), "latency": lat,
                "net_latency": net, "inj_latency": (lat - net) if lat and net else None,
                "acc_min_node": num(r["accepted_min_node"]),
                "acc_max_node": num(r["accepted_max_node"]), "drain": r["drain"]}
        pts.append(_point("k3", "3", r["routing"], r["traffic"],
                          r["offered_flits_per_node_cycle"], int(r["seed"]),
                          int(r["warmup_periods"]) * int(r["sample_period"]),
                          int(r["measured_periods"]) * int(r["sample_period"]), peer))
    if quick:
        return pts
    for name in ("booksim2_uniform.csv", "booksim2_adv1.csv"):
        for r in read_csv(name):
            args = dict(a.split("=", 1) for a in r["cmd"].split() if "=" in a)
            warmup = int(args["warmup_periods"]) * int(args["sample_period"])
            lat, net = num(r["lat_pkt_avg"]), num(r["lat_net_avg"])
            peer = {"accepted": num(r["acc_avg"]), "latency": lat, "net_latency": net,
                    "inj_latency": (lat - net) if lat and net else None,
                    "acc_min_node": num(r["acc_min"]), "acc_max_node": num(r["acc_max"]),
                    "drain": "killed" if r["drain_killed"] == "True" else ""}
            # meas_cycles counts the warm-up too (cycles simulated before the drain)
            pts.append(_point("speed", r["k"], r["routing"], r["traffic"], r["offered"], 1,
                              warmup, int(r["meas_cycles"]) - warmup, peer))
    return pts


def compare(point, doc):
    p, f = point["peer"], dfsim_figures(doc)
    same = p["class"] == "same"
    checks = []
    if "accepted" in f:
        if not p["saturated"]:
            tol = TOLERANCES["accepted"]["pct"]
        elif p["routing"] == "min":
            tol = TOLERANCES["accepted"]["pct"]
        elif p["routing"].startswith("valiant"):
            tol = TOLERANCES["accepted_saturated"]["pct"]
        else:
            tol = None  # UGAL past saturation: a known disagreement (README)
        checks.append(check("accepted", p["accepted"], f["accepted"], tol if same else None))
    if not p["saturated"] and not p["knee"] and "latency" in f:
        tol = TOLERANCES["latency_ugal" if p["routing"].startswith("ugal") else "latency"]
        checks.append(check("latency", p["latency"], f["latency"], tol["pct"] if same else None))
    return checks



COLUMNS = [
    ("set", "set", "str"), ("k", "k", "str"), ("traffic", "traffic", "str"),
    ("routing", "BookSim routing", "str"), ("offered", "offered", "num4"), ("seed", "seed", "str"),
    ("peer_accepted", "BookSim accepted", "num4"), ("dfsim_accepted", "dfsim accepted", "num4"),
    ("diff_accepted", "diff %", "pct"),
    ("peer_latency", "BookSim latency"), ("dfsim_latency", "dfsim latency"),
    ("diff_latency", "diff %", "pct"),
    ("peer_net_latency", "BookSim net latency"), ("dfsim_net_latency", "dfsim net latency"),
    ("dfsim_misrouted", "dfsim misrouted"), ("compared", "compared", "str"),
]


def report(results, out_dir):
    rows, groups = [], {}
    for pt, doc in results:
        p, f = pt["peer"], dfsim_figures(doc)
        klass = p["class"]
        compared = compared_label(p, doc, CLASS_NOTE)
        row = {"set": p["set"], "k": p["k"], "traffic": TRAFFIC_LABEL[p["traffic"]],
               "routing": p["routing"], "offered": p["offered"], "seed": p["seed"],
               "peer_accepted": p["accepted"], "dfsim_accepted": f.get("accepted"),
               "diff_accepted": diff_pct(f.get("accepted"), p["accepted"]),
               "peer_latency": p["latency"], "dfsim_latency": f.get("latency"),
               "diff_latency": diff_pct(f.get("latency"), p["latency"]),
               "peer_net_latency": p["net_latency"], "dfsim_net_latency": f.get("net_latency"),
               "dfsim_misrouted": f.get("misrouted_global"), "compared": compared,
               "class": klass, "saturated": p["saturated"], "knee": p["knee"],
               "noise_pct": p["noise_pct"]}
        rows.append(row)
        groups.setdefault((p["set"], klass), []).append(row)
    rows.append({"set": "speed", "k": 8, "traffic": "UN", "routing": "min", "offered": 0.1,
                 "compared": "no: a memory probe of 16,512 nodes, its figures not recorded"})
    summary = {"points": len(results), "not_compared": 1}
    for (kset, klass), rs in sorted(groups.items()):
        summary[f"{kset}_{klass}"], _ = agreement(rs)
    for (kset, klass), rs in sorted(groups.items()):
        if klass != "same":
            continue
        for rt in sorted({r["routing"] for r in rs}):
            for tr in ("UN", "ADV+1"):
                sub = [r for r in rs if r["routing"] == rt and r["traffic"] == tr and
                       r["dfsim_accepted"] is not None]
                if not sub:
                    continue
                below = [r for r in sub if not r["saturated"] and not r["knee"]]
                summary[f"{kset}_{rt}_{tr}"] = {
                    "accepted_below_saturation": stats([r["diff_accepted"] for r in sub
                                                        if not r["saturated"]]),
                    "latency_below_saturation": stats([r["diff_latency"] for r in below]),
                    "accepted_past_saturation": stats([r["diff_accepted"] for r in sub
                                                       if r["saturated"]])}
    summary.update(count_checks(compare, results))
    intro = [
        "BookSim2 (booksim/booksim2 `28f4329`) against dfsim on the same points; provenance "
        "and mapping in [peers/booksim2.md](../peers/booksim2.md), the discussion in "
        "[the validation page](../README.md#booksim2). Loads in flits = phits/(node*cycle), "
        "latencies in cycles (BookSim: packets created and delivered in the window; dfsim: "
        "delivered in the window). Set k3: 3,000 + 5,000 cycles, seeds 1 and 2; set speed: "
        "the speed runs' windows, one seed. dfsim's `ugal` row serves BookSim's `ugal` and "
        "`ugal_4vc`, dfsim's `valiant` (to a router) `valiant_4vc` and `valiant_3vc`. "
        "diff % = (dfsim - BookSim) / BookSim; dfsim misrouted = fraction of packets sent "
        "nonminimally.",
        "",
        "`compared`: yes = in the agreement figures (\"saturated\": BookSim accepted < 97 % of "
        "offered; \"knee\": all carried but BookSim's mean source-queue wait is over 50 "
        "cycles); apart = run and shown, outside them, for the reason given.",
    ]
    write_table(out_dir, COLUMNS, rows, "BookSim2 vs dfsim: every point", intro)
    _figures(rows, out_dir)
    return summary


def _figures(rows, out_dir):
    routings = ["min", "ugal_4vc", "valiant_4vc", "ugal"]
    for traffic in ("UN", "ADV+1"):
        sel = [r for r in rows if r["set"] == "k3" and r["traffic"] == traffic and
               "dfsim_accepted" in r]
        panels = []
        for key, ylabel, logy in (("accepted", "accepted load", False),
                                  ("latency", "latency, cycles", True)):
            curves = []
            for rt in routings:
                rs = [r for r in sel if r["routing"] == rt]
                loads = sorted({r["offered"] for r in rs})
                if not loads:
                    continue

                def mean(src, x):
                    vals = [r[f"{src}_{key}"] for r in rs if r["offered"] == x and
                            r[f"{src}_{key}"] is not None]
                    # past saturation BookSim's latency counts only the lucky packets
                    if key == "latency" and any(r["saturated"] for r in rs if r["offered"] == x):
                        return None
                    return statistics.mean(vals) if vals else None
                curves.append({"routing": rt, "source": "peer", "x": loads,
                               "y": [mean("peer", x) for x in loads],
                               "label": f"{LABEL[rt]} BookSim"})
                if rt != "ugal":  # dfsim's ugal is drawn once, with ugal_4vc
                    curves.append({"routing": rt, "source": "dfsim", "x": loads,
                                   "y": [mean("dfsim", x) for x in loads],
                                   "label": {"min": "MIN", "ugal_4vc": "UGAL",
                                             "valiant_4vc": "Valiant"}[rt] + " dfsim"})
            panels.append({"title": {"accepted": "accepted vs offered",
                                     "latency": "mean latency (below saturation)"}[key],
                           "xlabel": "offered load, flits/(node*cycle)", "ylabel": ylabel,
                           "curves": curves, "logy": logy, "diagonal": key == "accepted"})
        overlay(os.path.join(out_dir, f"k3_{traffic.replace('+', '').lower()}.png"),
                f"BookSim2 (dashed) vs dfsim (solid): k=3 (h=3), {traffic}, mean of seeds 1, 2",
                panels, routings)
