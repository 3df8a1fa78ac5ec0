"""FOGSim v5 (fuentesp/fogsim dcdd75f) on h=2 and h=3 canonical dragonflies: the validation
suite's peer module (tools/validate.py; provenance and mapping: results/validation/peers/fogsim.md).

Every row of results/validation/peers/fogsim_h2_h3.csv becomes one dfsim point with the same
network, router, routing, arbiter, traffic, load, seed and windows, except the 14 h=6 speed rows
(1,500-cycle runs kept for their wall time; their figures are start-up transients). Rows whose
set-up dfsim cannot match exactly are run and shown, in their own class, outside the headline
agreement figures:
  advc_h3   FOGSim draws ADVc over h-1 = 2 groups, dfsim over h = 3 (at h = 2 FOGSim's ADVc is
            ADV+1, and those rows run dfsim's ADV+1: class "same")
  pb        FOGSim's PB is Valiant to a group on 3/2 VCs, dfsim's piggyback goes through a router
            of the intermediate group on 4/2 VCs (longer nonminimal paths)
  obl       FOGSim's OBL may draw the destination group as intermediate (then goes minimal
            from there), dfsim's oblivious never does (always 5 hops l-g-l-g-l at most)
  olm_nol   FOGSim's CRG/RRG/NRG/MM without _L forbid the opportunistic local misroute outside
            the source group; dfsim's in_transit always allows it (FOGSim's *_L)
Fairness (min injected load, Max/Min, CoV) is compared below saturation only: FOGSim counts the
packets generated into its source queues, dfsim those entering the network. OLM's in-transit
restriction is translated into dfsim's terms (restriction() below).
"""
import os

from validation import (agreement, check, compared_label, count_checks, dfsim_figures, diff_pct,
                        num, overlay, read_csv, sampling_noise_pct, stats, write_table)

PEER = "fogsim"
CSV = "fogsim_h2_h3.csv"

TOLERANCES = {
    "accepted": {"pct": 2.0, "why": "below saturation both carry the offered load; at MIN's "
                 "saturation the bound 1/(a*p) is the topology's, so dfsim must hit it too"},
    "accepted_saturated": {"pct": 5.0, "why": "past saturation of an adaptive or Valiant routing "
                           "the throughput depends on allocator and arbiter details that differ"},
    "latency": {"pct": 3.0, "why": "below saturation latency is links + router hops + "
                "serialization: a router latency off by 2 cycles moves h=2 by about 4 %"},
}

# FOGSim name -> dfsim settings
ROUTING = {
    "MIN": {"routing.mechanism": "min"},
    "VAL": {"routing.mechanism": "valiant", "routing.valiant_target": "group"},
    "VAL_ANY": {"routing.mechanism": "valiant", "routing.valiant_target": "router"},
    "OBL": {"routing.mechanism": "oblivious", "routing.global_policy": "rrg"},
    "PB": {"routing.mechanism": "piggyback", "routing.global_policy": "rrg",
           "routing.pb_coef": 200, "routing.pb_local_threshold": 0,
           "routing.pb_global_threshold": 5},
    "OLM": {"routing.mechanism": "in_transit", "routing.global_policy": "mm"},
}
ARBITER = {
    "RR": {"router.arbiter": "round_robin", "router.transit_priority": False},
    "RR+transitPrio": {"router.arbiter": "round_robin", "router.transit_priority": True},
    "AGE": {"router.arbiter": "age", "router.transit_priority": False},
}


def restriction(h, coef, th, vcs=2):
    """FOGSim's in-transit global restriction (coef %, th packets) in dfsim's terms.

    FOGSim: a minimal global port is congested iff its occupancy averaged over its `vcs` global
    VCs exceeds coef % of the mean of that average over all h global ports of the router
    (itself included) plus th packets. dfsim: its occupancy summed over the VCs exceeds coef' %
    of the mean of the h-1 other ports' plus th' packets. With x the port's phits, o the other
    ports' sum, c = coef/100 and F the packet size, FOGSim's test x/V > c (x + o)/(h V) + th F
    is x > c (h-1)/(h-c) * o/(h-1) + V h/(h-c) * th F, hence
        coef' = 100 c (h-1)/(h-c),   th' = V h th/(h-c).
    h=2: 150/5 -> 300/40; h=3: 150/5 -> 200/20; 100/0 -> 100/0 at both."""
    c = coef / 100.0
    return round(100 * c * (h - 1) / (h - c)), round(vcs * h * th / (h - c))

POLICY = {"MM_L": "mm", "MM": "mm", "CRG": "crg", "RRG": "rrg", "NRG": "nrg"}
ROUTING_LABEL = {"MIN": "MIN", "VAL": "VAL", "VAL_ANY": "VAL-any", "OBL": "OBL-RRG",
                 "PB": "PB", "OLM": "OLM"}
CLASS_NOTE = {
    "same": "",
    "advc_h3": "ADVc: FOGSim 2 groups, dfsim 3",
    "pb": "PB: FOGSim Valiant-group 3/2 VCs",
    "olm_nol": "no _L in FOGSim",
    "obl": "OBL: FOGSim's intermediate group may be the destination's",
}

# The quick subset (make test): (h, traffic, routing, arb, offered), set main, seed 1.
QUICK = [
    ("2", "UN", "MIN", "RR", "0.1"),      # zero-load-like latency: router and link timing
    ("2", "UN", "VAL", "RR", "0.3"),      # Valiant-group path length and latency
    ("2", "ADV+1", "MIN", "RR", "0.3"),   # MIN saturates at 1/(a*p) = 0.125
    ("3", "ADV+1", "MIN", "RR", "0.3"),   # 1/(a*p) = 0.0556
    ("3", "ADV+1", "VAL", "AGE", "0.5"),  # Valiant's saturation under ADV+1 (about 0.46)
    ("2", "ADV+1", "OLM", "AGE", "0.3"),  # in-transit adaptive below saturation
]


def _fmt(v):
    return v.replace(".", "")


def _row_point(r):
    h = r["h"]
    s = {"sim.seed": int(r["seed"]), "sim.warmup_cycles": int(r["warmup"]),
         "sim.measure_cycles": int(r["measured"]), "traffic.load": float(r["offered"])}
    s.update(ARBITER[r["arb"]])
    s.update(ROUTING[r["routing"]])
    klass = "same"
    if r["traffic"] == "UN":
        s["traffic.pattern"] = "uniform"
    elif r["traffic"] == "ADV+1" or (r["traffic"] == "ADVc" and h == "2"):
        s["traffic.pattern"] = "adversarial"
        s["traffic.offset"] = 1
    else:
        s["traffic.pattern"] = "adversarial_consecutive"
        klass = "advc_h3"
    if r["routing"] == "OBL" and klass == "same":
        klass = "obl"
    if r["routing"] == "PB":
        if r["gmp"] == "CRG":
            s["routing.global_policy"] = "crg"
        klass = "pb" if klass == "same" else klass
    if r["routing"] == "OLM":
        gmp = r["gmp"] or "MM_L"
        s["routing.global_policy"] = POLICY[gmp]
        s["routing.misroute_threshold"] = int(r["olm_T"])
        s["routing.th_min"] = 0
        coef, th = restriction(int(h), int(r["olm_coef"]), int(r["olm_th"]))
        s["routing.global_congestion_coef"] = coef
        s["routing.global_congestion_threshold"] = th
        if not gmp.endswith("_L") and klass == "same":
            klass = "olm_nol"
    pid = "-".join([f"h{h}", {"UN": "un", "ADV+1": "adv1", "ADVc": "advc"}[r["traffic"]],
                    r["routing"].lower(), {"RR": "rr", "RR+transitPrio": "rrtp",
                                           "AGE": "age"}[r["arb"]]])
    if r["routing"] in ("OLM", "PB") and r["gmp"]:
        pid += "-" + r["gmp"].lower()
    if r["routing"] == "OLM":
        pid += f"-t{r['olm_T']}-c{r['olm_coef']}-{r['olm_th']}"
    pid += f"-w{r['warmup']}-l{_fmt(r['offered'])}-s{r['seed']}"
    offered = float(r["offered"])
    acc = num(r["accepted"])
    peer = {
        "set": r["set"], "h": int(h), "traffic": r["traffic"], "routing": r["routing"],
        "arb": r["arb"], "gmp": r["gmp"], "olm_T": r["olm_T"], "olm_coef": r["olm_coef"],
        "olm_th": r["olm_th"], "offered": offered, "seed": int(r["seed"]),
        "warmup": int(r["warmup"]), "accepted": acc, "latency": num(r["avg_total_lat"]),
        "net_latency": num(r["avg_net_lat"]), "min_inj_load": num(r["min_inj_load"]),
        "maxmin": num(r["maxmin"]), "cov": num(r["cov"]), "hops": num(r["avg_hops"]),
        "class": klass, "saturated": acc < 0.97 * offered,
        # at the knee: all the offered load is carried, but the source queues are building up
        # (mean wait > 50 cycles), so latency is not a below-saturation figure
        "knee": acc >= 0.97 * offered and num(r["avg_inj_lat"]) > 50,
        "noise_pct": sampling_noise_pct(int(r["nodes"]), int(r["measured"]), offered),
    }
    return {"id": pid, "config": f"conf/validation/fogsim_h{h}.cfg", "settings": s, "peer": peer}


def points(quick=False):
    pts, skipped = [], []
    for r in read_csv(CSV):
        if r["set"] == "h6":
            skipped.append(r)
            continue
        pt = _row_point(r)
        if quick:
            key = (r["h"], r["traffic"], r["routing"], r["arb"], r["offered"])
            if r["set"] != "main" or r["seed"] != "1" or key not in QUICK:
                continue
        pts.append(pt)
    return pts


def skipped_rows():
    return [r for r in read_csv(CSV) if r["set"] == "h6"]


def compare(point, doc):
    """The checks of one point: accepted always; latency below saturation (asserted for the
    points of class "same"); fairness below saturation (shown, never asserted)."""
    p, f = point["peer"], dfsim_figures(doc)
    same = p["class"] == "same"
    checks = []
    sat = p["saturated"]
    if "accepted" in f:
        tol = TOLERANCES["accepted_saturated" if sat and p["routing"] != "MIN" else "accepted"]
        checks.append(check("accepted", p["accepted"], f["accepted"],
                             tol["pct"] if same else None))
    if not sat and not p["knee"] and "latency" in f:
        checks.append(check("latency", p["latency"], f["latency"],
                             TOLERANCES["latency"]["pct"] if same else None))
    return checks



COLUMNS = [
    ("set", "set", "str"), ("h", "h", "str"), ("traffic", "traffic", "str"),
    ("routing", "routing", "str"), ("arb", "arbiter", "str"), ("gmp", "policy", "str"),
    ("offered", "offered", "num4"), ("seed", "seed", "str"), ("warmup", "warm-up", "str"),
    ("peer_accepted", "FOGSim accepted", "num4"), ("dfsim_accepted", "dfsim accepted", "num4"),
    ("diff_accepted", "diff %", "pct"),
    ("peer_latency", "FOGSim latency"), ("dfsim_latency", "dfsim latency"),
    ("diff_latency", "diff %", "pct"),
    ("peer_min_inj", "FOGSim min inj", "num4"), ("dfsim_min_inj", "dfsim min inj", "num4"),
    ("peer_maxmin", "FOGSim Max/Min"), ("dfsim_maxmin", "dfsim Max/Min"),
    ("peer_cov", "FOGSim CoV", "num4"), ("dfsim_cov", "dfsim CoV", "num4"),
    ("compared", "compared", "str"),
]


def report(results, out_dir):
    rows = []
    groups = {}
    for pt, doc in results:
        p, f = pt["peer"], dfsim_figures(doc)
        klass = p["class"]
        compared = compared_label(p, doc, CLASS_NOTE)
        row = {"set": p["set"], "h": p["h"], "traffic": p["traffic"],
               "routing": ROUTING_LABEL[p["routing"]], "arb": p["arb"],
               "gmp": p["gmp"] + (f" T{p['olm_T']} {p['olm_coef']}/{p['olm_th']}"
                                  if p["routing"] == "OLM" else ""),
               "offered": p["offered"], "seed": p["seed"], "warmup": p["warmup"],
               "peer_accepted": p["accepted"], "dfsim_accepted": f.get("accepted"),
               "diff_accepted": diff_pct(f.get("accepted"), p["accepted"]),
               "peer_latency": p["latency"], "dfsim_latency": f.get("latency"),
               "diff_latency": diff_pct(f.get("latency"), p["latency"]),
               "peer_min_inj": p["min_inj_load"], "dfsim_min_inj": f.get("min_inj_load"),
               "peer_maxmin": p["maxmin"], "dfsim_maxmin": f.get("maxmin"),
               "peer_cov": p["cov"], "dfsim_cov": f.get("cov"), "compared": compared,
               "class": klass, "saturated": p["saturated"], "knee": p["knee"],
               "noise_pct": p["noise_pct"],
               "dfsim_net_latency":
               f.get("net_latency"), "peer_net_latency": p["net_latency"]}
        rows.append(row)
        groups.setdefault(klass, []).append(row)
    for r in skipped_rows():
        rows.append({"set": r["set"], "h": r["h"], "traffic": r["traffic"],
                     "routing": ROUTING_LABEL[r["routing"]], "arb": r["arb"],
                     "gmp": r["gmp"], "offered": float(r["offered"]), "seed": r["seed"],
                     "warmup": r["warmup"], "peer_accepted": num(r["accepted"]),
                     "peer_latency": num(r["avg_total_lat"]),
                     "compared": "no: h=6 speed run of 750 + 750 cycles (not steady)"})
    summary = {"points": len(results), "not_compared": len(skipped_rows())}
    for klass, rs in sorted(groups.items()):
        summary[klass], below = agreement(rs)
        summary[klass]["min_inj_below_saturation"] = stats(
            [diff_pct(r["dfsim_min_inj"], r["peer_min_inj"]) for r in below])
    summary.update(count_checks(compare, results))
    intro = [
        "FOGSim v5 (fuentesp/fogsim `dcdd75f`) against dfsim on the same points; provenance and "
        "mapping in [peers/fogsim.md](../peers/fogsim.md), the discussion in "
        "[the validation page](../README.md#fogsim). Loads in phits/(node*cycle), latencies in "
        "cycles (generation to delivery, source queue included); min inj = the injected load "
        "of the least-injecting router. diff % = (dfsim - FOGSim) / FOGSim.",
        "",
        "`compared`: yes = same set-up (in the agreement figures; \"saturated\": FOGSim "
        "accepted < 97 % of offered; \"knee\": all carried but FOGSim's mean source-queue wait "
        "is over 50 cycles, so its latency is left out of the below-saturation figure); "
        "apart = run and shown, outside the agreement figures, for the reason given; "
        "no = not run.",
    ]
    write_table(out_dir, COLUMNS, rows, "FOGSim vs dfsim: every point", intro)
    _figures(rows, out_dir)
    return summary


def _figures(rows, out_dir):
    # One figure per (h, traffic): set main, RR, seed 1; MIN, VAL, PB, OLM.
    routings = ["MIN", "VAL", "PB", "OLM"]
    for h in (2, 3):
        for traffic in ("UN", "ADV+1", "ADVc"):
            sel = [r for r in rows if r["set"] == "main" and r["h"] == h and
                   r["traffic"] == traffic and r["arb"] == "RR" and "dfsim_accepted" in r]
            if not sel:
                continue
            panels = []
            for key, ylabel, logy in (("accepted", "accepted load", False),
                                      ("latency", "latency, cycles", True),
                                      ("maxmin", "Max/Min injected", False)):
                curves = []
                for rt in routings:
                    rs = sorted((r for r in sel if r["routing"] == rt), key=lambda r: r["offered"])
                    if not rs:
                        continue
                    xs = [r["offered"] for r in rs]
                    for src, name in (("peer", "FOGSim"), ("dfsim", "dfsim")):
                        ys = [r[f"{src}_{key}"] for r in rs]
                        ys = [None if (y is None or y == float("inf")) else y for y in ys]
                        curves.append({"routing": rt, "source": src, "x": xs, "y": ys,
                                       "label": f"{rt} {name}"})
                panels.append({"title": {"accepted": "accepted vs offered",
                                         "latency": "mean latency",
                                         "maxmin": "Max/Min (FOGSim: generated)"}[key],
                               "xlabel": "offered load, phits/(node*cycle)", "ylabel": ylabel,
                               "curves": curves, "logy": logy, "diagonal": key == "accepted"})
            name = f"h{h}_{traffic.replace('+', '').lower()}.png"
            note = " (FOGSim: 2 groups, dfsim: 3)" if (h == 3 and traffic == "ADVc") else ""
            note = " (FOGSim's ADVc = ADV+1 at h=2; dfsim: ADV+1)" if (h == 2 and traffic ==
                                                                       "ADVc") else note
            overlay(os.path.join(out_dir, name),
                    f"FOGSim (dashed) vs dfsim (solid): h={h}, {traffic}, round robin{note}",
                    panels, routings)
