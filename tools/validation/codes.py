"""CODES (codes-org/codes a5958cf on ROSS dc3a6a0) on Dragonfly+ networks: the validation
suite's peer module (tools/validate.py; provenance and mapping: results/validation/peers/codes.md).

The peer rows of results/validation/peers/codes_dfplus.csv are converted to dfsim's units (a
16-byte phit, one phit per cycle on a global link: loads = fraction of the node link x the node
link's phits per cycle, latencies ns / cycle length) and run on:
  3456   conf/dragonfly_plus_3456.cfg (uniform) and conf/validation/codes_3456_tornado.cfg
         (the peer's +1 group shift: node x -> x + 384), 10 + 20 us windows
  small  conf/validation/codes_small.cfg and codes_small_tornado.cfg: the peer's 80-node example
Routings: the peer's MIN = dfsim `min`; the peer's FPAR with its occupancy score restored
("fixed" build) = dfsim `fpar` with the same threshold T; the peer's stock FPAR, which never
misroutes (random minimal), = dfsim `fpar` with T = 100 (every minimal port passes) and
`routing.min_choice = "hash"` (no load read among them).
Classes of points (the `class` of each point's peer dict):
  same        the 3,456-node Poisson rows against dfsim's Bernoulli sources: the headline
  stock       the peer's stock FPAR (lockstep rows; throughput only)
  small       the peer's 80-node example (lockstep rows; throughput only)
  threshold   fixed FPAR at T = 0 / 25 / 75 / 100 under the group shift
  granularity dfsim with the peer's 4 KB messages (32 packets), message latency against the
              peer's 4 KB messages cut into 512-byte store-and-forward chunks
  adv_random  experiment: dfsim's `adversarial` (a random node of group g + 1) instead of the
              tornado, against the peer's tornado rows
  buffers     experiment: dfsim with the peer's 32 KB (2,048-phit) buffers, against the peer's
              UN saturation
  score       experiment: dfsim's FPAR at T = 75, or with 512-phit global buffers, under the
              group shift at 70 % of MIN's bound (where dfsim misroutes and the peer does not)
Rows not run (lockstep duplicates of the Poisson rows, the biased short window, speed-only rows)
are listed in the table with the reason.
"""
import os
import sys

if __name__ == "__main__":  # run as a script: make `validation` importable
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from validation import (cell, check, diff_pct, num, overlay, read_csv, stats, write_table)

PEER = "codes"
CSV = "codes_dfplus.csv"

GIB_NS = 2 ** 30 / 1e9  # bytes per ns in one GiB/s

SYSTEMS = {
    # cycle = 16 B / global-link bandwidth; node_bw = node link in phits/cycle (the config's)
    "3456": {"cycle_ns": 16 / (4.37 * GIB_NS), "node_bw": 3.66,
             "UN": "conf/dragonfly_plus_3456.cfg",
             "shift": "conf/validation/codes_3456_tornado.cfg",
             "msgs": "conf/validation/codes_3456_messages.cfg",
             "window": {"sim.warmup_cycles": 2930, "sim.measure_cycles": 5865}},
    "small": {"cycle_ns": 16 / (1.5 * GIB_NS), "node_bw": 5.333,
              "UN": "conf/validation/codes_small.cfg",
              "shift": "conf/validation/codes_small_tornado.cfg",
              "window": {}},  # the config's 20 + 100 us
}

TOLERANCES = {
    "accepted": {"pct": 2.0, "why": "below saturation (offered at most 80 % of MIN's bound, "
                 "the links between groups) both simulators must carry what is offered: a miss "
                 "means lost or duplicated traffic or a wrong load conversion. The peer's own "
                 "accepted figures sit up to 1.6 % below its offered load there"},
    "accepted_bound": {"pct": 3.0, "why": "MIN (and stock FPAR, random minimal) under the +1 "
                       "group shift saturate on the topology's bound, the links between two "
                       "groups (48 / 384 of a global link per node; 4 / 16 on the small "
                       "network): any router must land on it. 3 % leaves room for the peer's "
                       "window discretisation and the 1-2 % of traffic that stays in its group"},
    "accepted_adaptive": {"pct": 4.0, "why": "fixed FPAR at 1.6 times MIN's bound or more "
                          "under the group shift: both carry nearly all the offered load, but "
                          "how much goes non-minimally depends on the score each simulator "
                          "reads (the peer: this router's output queue; dfsim: the next VC's "
                          "credits). Between 1 and 1.6 times the bound, where FPAR starts to "
                          "misroute, the two differ by up to 7 % and are shown, not asserted"},
}

QUICK = [  # (set, run_id): about 10 s in all on one core
    ("small-example", "small_min_t1_1000"),       # UN below saturation
    ("small-example", "small_min_t1_400"),        # UN MIN saturation (close to the bound)
    ("small-example", "small_min_t3_1000"),       # shift: MIN on the bound 4/16 global links
    ("small-example", "small_fparfix_t3_1500"),   # shift: fixed FPAR carries 1.7x MIN's bound
    ("small-example", "small_fparstock_t3_1500"),  # shift: stock FPAR = random minimal = bound
    ("3456-poisson", "pois_s3456_fparfix_t3_3000"),   # study system: FPAR 2.3x MIN's bound
    ("3456-poisson", "pois_s3456_min_t1_1500"),       # study system: UN below saturation
]

ROUTING_LABEL = {("min", "stock"): "MIN", ("fpar", "fixed"): "FPAR fixed",
                 ("fpar", "stock"): "FPAR stock"}
ROUTINGS = ["MIN", "FPAR fixed", "FPAR stock"]

NOT_RUN = {
    "3456-lockstep": "lockstep injection: the 3456-poisson rows of the same routing are "
                     "compared instead (the same throughput; dfsim's sources are random)",
    "3456-short-window": "5 + 20 us window: the peer's own accepted load is biased low",
    "3456-long-window": "speed run (200 us), same results as 3456-lockstep",
    "timing-repeat": "speed run, identical to a 3456-lockstep row",
    "3456-fpar-threshold": "UN threshold sensitivity: costly saturated runs, not in the suite",
    "3456-chunk512": "512-byte chunks: only the UN 1,000 ns rows are used (granularity)",
}


def _routing_settings(routing, build, threshold):
    if routing == "min":
        return {"routing.mechanism": "min"}
    if build == "stock":  # never misroutes: random among the minimal ports
        return {"routing.mechanism": "fpar", "routing.fpar_threshold": 100,
                "routing.min_choice": "hash"}
    return {"routing.mechanism": "fpar", "routing.fpar_threshold": int(threshold or 50)}


def _klass(r):
    """The class of a CSV row (None: not run)."""
    s, shift = r["set"], r["traffic"] != "uniform"
    if s == "3456-poisson":
        return "same"
    if s == "small-example":
        return "small"
    if s == "3456-lockstep" and r["codes_build"] == "stock" and r["routing"] == "fpar":
        if shift and r["interval_ns"] in ("7000", "3000", "2000"):
            return "stock"
        if not shift and r["interval_ns"] == "500":
            return "stock"
        return None
    if s == "3456-fpar-threshold" and shift:
        return "threshold"
    if s == "3456-chunk512" and not shift and r["interval_ns"] == "1000":
        return "granularity"
    return None


def _peer(r, klass):
    system = "small" if r["set"] == "small-example" else "3456"
    offered, acc = float(r["offered_frac"]), num(r["accepted_frac"])
    routing = ROUTING_LABEL[(r["routing"], r["codes_build"])]
    return {"set": r["set"], "run_id": r["run_id"], "system": system,
            "traffic": "shift" if r["traffic"] != "uniform" else "UN",
            "routing": routing, "T": r["adaptive_threshold_pct"] or "",
            "interval_ns": int(r["interval_ns"]), "offered": offered,
            "bound": float(r["min_bound_frac"]), "accepted": acc,
            "latency_ns": num(r["mean_latency_ns"]), "nonmin": num(r["nonmin_chunk_frac"]),
            "chunk_B": int(r["chunk_B"]), "injection": "Poisson" if r["set"] == "3456-poisson"
            else "lockstep", "class": klass, "discretised": _discretised(r),
            # below saturation: at most 80 % of MIN's bound (the links between groups)
            "saturated": offered > 0.8 * float(r["min_bound_frac"])}


def _discretised(r):
    """Lockstep rows that carry their offered load in a window holding a fractional number of
    sends per node: the peer's accepted load is then biased low by more than 2 % (the 8,000 ns
    rows of the 80-node example: 12.5 sends in 100 us, counted as 12)."""
    if r["set"] == "3456-poisson" or float(r["accepted_frac"]) < 0.95 * float(r["offered_frac"]):
        return False
    sends = float(r["window_ns"]) / float(r["interval_ns"])
    return (sends - int(sends)) / sends > 0.02


def _point(pid, klass, r, settings_extra=None, traffic=None):
    p = _peer(r, klass)
    sysd = SYSTEMS[p["system"]]
    traffic = traffic or p["traffic"]
    load = round(p["offered"] * sysd["node_bw"], 5)
    s = dict(sysd["window"])
    s.update(_routing_settings(r["routing"], r["codes_build"], r["adaptive_threshold_pct"]))
    if klass == "granularity":
        config = sysd["msgs"]
        s["jobs.all.load"] = load
    elif traffic == "UN":
        config = sysd["UN"]
        s["traffic.load"] = load
    elif traffic == "shift":
        config = sysd["shift"]
        s["jobs.all.load"] = load
    else:  # dfsim's adversarial: a random node of group g + 1
        config = sysd["UN"]
        s["traffic.pattern"] = "adversarial"
        s["traffic.offset"] = 1
        s["traffic.load"] = load
    s.update(settings_extra or {})
    p["dfsim_traffic"] = traffic
    return {"id": pid, "config": config, "settings": s, "peer": p}


def _pid(r, prefix=""):
    return prefix + r["run_id"].replace("_", "-")


def points(quick=False):
    rows = read_csv(CSV)
    pts = []
    for r in rows:
        if quick and (r["set"], r["run_id"]) not in QUICK:
            continue
        klass = _klass(r)
        if klass is None:
            continue
        pts.append(_point(_pid(r), klass, r))
    if quick:
        return pts
    by_id = {r["run_id"]: r for r in rows}
    # Experiments. dfsim's adversarial (random node of the next group) against the tornado rows.
    for rid in ("pois_s3456_min_t3_3000", "pois_s3456_min_t3_2000", "pois_s3456_fparfix_t3_3000",
                "pois_s3456_fparfix_t3_2000"):
        pts.append(_point(_pid(by_id[rid], "adv-"), "adv_random", by_id[rid],
                          traffic="adversarial"))
    # The peer's buffers (32 KB = 2,048 phits per VC): the UN saturation moves to the peer's.
    for rid in ("pois_s3456_min_t1_500", "pois_s3456_fparfix_t1_500"):
        pts.append(_point(_pid(by_id[rid], "bufpeer-"), "buffers", by_id[rid], PEER_BUFFERS))
    # What dfsim's FPAR score counts: misrouting at 70 % of MIN's bound under the shift goes
    # away with a higher threshold or with global buffers that the link's round trip fills less.
    r = by_id["pois_s3456_fparfix_t3_10000"]
    pts.append(_point(_pid(r, "t75-"), "score", r, {"routing.fpar_threshold": 75}))
    pts.append(_point(_pid(r, "gbuf512-"), "score", r, {"buffers.global": 512,
                                                         "buffers.output": 1024}))
    return pts


PEER_BUFFERS = {"buffers.local": 2048, "buffers.global": 2048, "buffers.output": 4096}


def _not_run_reason(r):
    if r["set"] == "3456-lockstep" and r["codes_build"] == "stock" and r["routing"] == "fpar":
        return ("stock FPAR (random minimal): only its saturation points are run; below "
                "saturation it is MIN with a random spine")
    return NOT_RUN.get(r["set"], "not in the suite")


def not_run_rows():
    return [r for r in read_csv(CSV) if _klass(r) is None]


def dfsim_fig(point, doc):
    """dfsim's figures in the peer's units: accepted as a fraction of the node link, latency
    in ns (message latency for the granularity class), misrouted fraction."""
    if not doc:
        return {}
    sysd = SYSTEMS[point["peer"]["system"]]
    out = {"accepted": doc["load"]["accepted"] / sysd["node_bw"],
           "offered": doc["load"]["offered"] / sysd["node_bw"],
           "latency_cycles": doc["latency"]["mean"],
           "misrouted": doc.get("misrouted", {}).get("global"),
           "wall_s": doc.get("timing", {}).get("wall_seconds")}
    lat = doc["latency"]["mean"]
    if point["peer"]["class"] == "granularity":
        lat = doc["jobs"][0]["messages"]["latency"]["mean"]
        out["latency_cycles"] = lat
    out["latency_ns"] = None if lat is None else lat * sysd["cycle_ns"]
    return out


def _tolerance(p):
    """The tolerance (a TOLERANCES key) asserted on a point's accepted load, or None."""
    if p["class"] in ("adv_random", "buffers", "score", "granularity", "threshold") or \
            p["discretised"]:
        return None
    ratio = p["offered"] / p["bound"]
    if ratio <= 0.8:
        return "accepted"
    if p["traffic"] == "shift" and p["routing"] in ("MIN", "FPAR stock") and ratio >= 1.3:
        return "accepted_bound"
    if p["traffic"] == "shift" and p["routing"] == "FPAR fixed" and ratio >= 1.6:
        return "accepted_adaptive"
    return None  # UN near and past saturation, MIN at the knee: shown, explained


def compare(point, doc):
    """Accepted load always (asserted as _tolerance() says); latency and the misrouted
    fraction shown, never asserted (the peer is store-and-forward per 4 KB chunk)."""
    p, f = point["peer"], dfsim_fig(point, doc)
    checks = []
    if "accepted" in f:
        key = _tolerance(p)
        checks.append(check("accepted", p["accepted"], f["accepted"],
                             TOLERANCES[key]["pct"] if key else None))
        checks.append(check("latency_ns", p["latency_ns"], f["latency_ns"], None))
        if p["nonmin"] is not None and f.get("misrouted") is not None:
            checks.append(check("nonminimal", p["nonmin"], f["misrouted"], None))
    return checks



CLASS_NOTE = {
    "same": "yes",
    "stock": "yes: stock FPAR = dfsim fpar T=100, hash",
    "small": "yes: 80-node example, lockstep",
    "threshold": "apart: threshold reads another occupancy",
    "granularity": "latency: dfsim 4 KB messages vs peer 512 B chunks",
    "adv_random": "experiment: dfsim adversarial (random node of g+1) vs peer tornado",
    "buffers": "experiment: dfsim with the peer's 2,048-phit (32 KB) buffers",
    "score": "experiment: dfsim FPAR's score (T = 75, or 512-phit global buffers)",
}

COLUMNS = [
    ("set", "set", "str"), ("traffic", "traffic", "str"), ("routing", "routing", "str"),
    ("T", "T %", "str"), ("interval_ns", "interval ns", "str"), ("offered", "offered"),
    ("dfsim_settings", "dfsim settings", "str"),
    ("peer_accepted", "CODES accepted"), ("dfsim_accepted", "dfsim accepted"),
    ("diff_accepted", "diff %", "pct"), ("tolerance", "tol %", "str"),
    ("peer_latency", "CODES latency ns"), ("dfsim_latency", "dfsim latency ns"),
    ("diff_latency", "diff %", "pct"),
    ("peer_nonmin", "CODES nonmin %"), ("dfsim_nonmin", "dfsim misrouted %"),
    ("compared", "compared", "str"),
]


def _settings_cell(pt):
    s = pt["settings"]
    parts = [os.path.basename(pt["config"]).replace(".cfg", "")]
    for k in ("routing.mechanism", "routing.fpar_threshold", "routing.min_choice",
              "traffic.pattern", "buffers.local", "buffers.global"):
        if k in s:
            parts.append(f"{k.split('.')[-1]}={s[k]}")
    load = s.get("traffic.load", s.get("jobs.all.load"))
    parts.append(f"load={load:g}")
    return " ".join(parts)


def _row(pt, doc):
    p, f = pt["peer"], dfsim_fig(pt, doc)
    key = _tolerance(p)
    acc_diff = diff_pct(f.get("accepted"), p["accepted"])
    compared = CLASS_NOTE[p["class"]] if doc else "no: dfsim run failed"
    if doc and key and acc_diff is not None and abs(acc_diff) > TOLERANCES[key]["pct"]:
        compared += " (OUT OF TOLERANCE)"
    if doc and p["class"] == "same" and p["saturated"] and not key:
        compared += " (near or past saturation: shown)"
    return {"set": p["set"], "system": p["system"], "traffic": p["traffic"]
            if p["dfsim_traffic"] != "adversarial" else "shift / dfsim ADV+1",
            "routing": p["routing"], "T": p["T"], "interval_ns": p["interval_ns"],
            "offered": p["offered"], "dfsim_settings": _settings_cell(pt),
            "peer_accepted": p["accepted"], "dfsim_accepted": f.get("accepted"),
            "diff_accepted": acc_diff,
            "tolerance": "" if not key else cell(TOLERANCES[key]["pct"], 0),
            "peer_latency": p["latency_ns"], "dfsim_latency": f.get("latency_ns"),
            "diff_latency": diff_pct(f.get("latency_ns"), p["latency_ns"]),
            "peer_nonmin": None if p["nonmin"] is None else 100 * p["nonmin"],
            "dfsim_nonmin": None if f.get("misrouted") is None else 100 * f["misrouted"],
            "compared": compared, "class": p["class"], "saturated": p["saturated"],
            "tol_key": key, "wall_s": f.get("wall_s"), "dfsim_traffic": p["dfsim_traffic"],
            "discretised": p["discretised"]}


def report(results, out_dir):
    rows = [_row(pt, doc) for pt, doc in results]
    for r in not_run_rows():
        p = _peer(r, None)
        rows.append({"set": r["set"], "system": p["system"], "traffic": p["traffic"],
                     "routing": p["routing"], "T": p["T"], "interval_ns": p["interval_ns"],
                     "offered": p["offered"], "peer_accepted": p["accepted"],
                     "peer_latency": p["latency_ns"],
                     "peer_nonmin": None if p["nonmin"] is None else 100 * p["nonmin"],
                     "compared": "no: " + _not_run_reason(r)})
    summary = {"points": len(results), "not_run_rows": len(not_run_rows())}
    ran = [r for r in rows if r.get("dfsim_accepted") is not None]
    for klass in ("same", "stock", "small", "threshold", "granularity", "adv_random",
                  "buffers", "score"):
        rs = [r for r in ran if r["class"] == klass]
        if not rs:
            continue
        below = [r for r in rs if not r["saturated"] and not r["discretised"]]
        above = [r for r in rs if r["saturated"]]
        summary[klass] = {"rows": len(rs),
                          "accepted_below_saturation": stats([r["diff_accepted"]
                                                              for r in below]),
                          "accepted_past_saturation": stats([r["diff_accepted"]
                                                             for r in above])}
    asserted = [r for r in ran if r.get("tol_key")]
    summary["asserted"] = {k: stats([r["diff_accepted"] for r in asserted
                                     if r["tol_key"] == k]) for k in TOLERANCES}
    summary["checks"] = len(asserted)
    summary["checks_within_tolerance"] = sum(
        abs(r["diff_accepted"]) <= TOLERANCES[r["tol_key"]]["pct"] for r in asserted)
    summary["dfsim_wall_s"] = round(sum(r["wall_s"] or 0 for r in ran), 1)
    intro = [
        "CODES (codes-org/codes `a5958cf`, on ROSS `dc3a6a0`) against dfsim on the same "
        "Dragonfly+ points; provenance and mapping in [peers/codes.md](../peers/codes.md), "
        "the discussion in [the validation page](../README.md#codes-dragonfly). Loads are "
        "fractions of the node link (dfsim's phits/(node*cycle) / 3.66 on the 3,456-node "
        "system, / 5.333 on the 80-node one); latencies in ns (dfsim's cycles x 3.41 ns, "
        "x 9.93 ns on the 80-node system), generation to delivery, source queue included. "
        "diff % = (dfsim - CODES) / CODES. nonmin % = the peer's non-minimal chunks, dfsim's "
        "packets with a non-minimal global hop.",
        "",
        "`tol %`: the tolerance asserted on the accepted load (tools/validation/codes.py, "
        "TOLERANCES); empty = shown, not asserted. Latencies are never asserted: the peer "
        "forwards whole 4 KB (80-node system: 1 KB) packets store-and-forward, dfsim 8-phit "
        "packets by virtual cut-through. `compared`: yes = same set-up; apart, latency and "
        "experiment = run and shown for the reason given; no = not run.",
    ]
    write_table(out_dir, COLUMNS, rows, "CODES vs dfsim: every row", intro)
    _figures(rows, out_dir)
    return summary


def _curves(sel, key, routings, labels=("CODES", "dfsim")):
    curves = []
    for rt in routings:
        rs = sorted((r for r in sel if r["routing"] == rt), key=lambda r: r["offered"])
        if not rs:
            continue
        xs = [r["offered"] for r in rs]
        for src, name in zip(("peer", "dfsim"), labels):
            ys = [r.get(f"{src}_{key}") for r in rs]
            curves.append({"routing": rt, "source": src, "x": xs, "y": ys,
                           "label": f"{rt} {name}"})
    return curves


def _figures(rows, out_dir):
    ran = [r for r in rows if r.get("dfsim_accepted") is not None]
    xl = "offered, fraction of the node link"
    # The study system: Poisson rows (MIN, fixed FPAR) + stock FPAR (lockstep) rows.
    for traffic, name, title in (("UN", "codes_3456_un.png", "uniform"),
                                 ("shift", "codes_3456_shift.png",
                                  "+1 group shift (tornado x -> x + 384)")):
        sel = [r for r in ran if r["system"] == "3456" and r["traffic"] == traffic and
               r["class"] in ("same", "stock")]
        if not sel:
            continue
        extra_acc, extra_lat, names = [], [], list(ROUTINGS)
        if traffic == "UN":
            # the experiments at matched buffers (accepted) and matched message size (latency)
            for klass, key, dest, suffix in (
                    ("buffers", "accepted", extra_acc, ", dfsim with 32 KB buffers"),
                    ("granularity", "latency", extra_lat, ", 4 KB: CODES 512 B chunks, dfsim "
                     "32 packets")):
                for rt in ("MIN", "FPAR fixed"):
                    rs = [r for r in ran if r["class"] == klass and r["routing"] == rt]
                    if not rs:
                        continue
                    label = rt + suffix
                    names.append(label)
                    for c in _curves(rs, key, [rt]):
                        if klass == "buffers" and c["source"] == "peer":
                            continue
                        c["routing"], c["label"] = label, label + (
                            "" if klass == "buffers" else
                            (" (CODES)" if c["source"] == "peer" else " (dfsim)"))
                        dest.append(c)
        panels = [
            {"title": "accepted vs offered", "xlabel": xl, "ylabel": "accepted, fraction",
             "curves": _curves(sel, "accepted", ROUTINGS) + extra_acc, "diagonal": True},
            {"title": "mean latency (CODES: 4 KB store-and-forward)", "xlabel": xl,
             "ylabel": "latency, ns", "logy": True,
             "curves": _curves([r for r in sel if r["class"] == "same"], "latency",
                               ROUTINGS) + extra_lat},
            {"title": "non-minimal, %", "xlabel": xl, "ylabel": "% non-minimal",
             "curves": _curves(sel, "nonmin", ROUTINGS)},
        ]
        overlay(os.path.join(out_dir, name),
                f"CODES (dashed) vs dfsim (solid): 3,456-node Dragonfly+, {title}",
                panels, names)
    sel = [r for r in ran if r["system"] == "small"]
    if sel:
        panels = []
        for traffic, title in (("UN", "uniform"), ("shift", "+1 group shift (x -> x + 16)")):
            ts = [r for r in sel if r["traffic"] == traffic]
            panels.append({"title": f"accepted, {title}", "xlabel": xl,
                           "ylabel": "accepted, fraction",
                           "curves": _curves(ts, "accepted", ROUTINGS), "diagonal": True})
        overlay(os.path.join(out_dir, "codes_small.png"),
                "CODES (dashed) vs dfsim (solid): the peer's 80-node Dragonfly+ example",
                panels, ROUTINGS)


if __name__ == "__main__":
    # A sequential runner of this module alone (tools/validate.py --peer codes does the same
    # with a pool): python3 tools/validation/codes.py [--quick]
    import json
    import subprocess
    import time
    from validation import ROOT
    quick = "--quick" in sys.argv
    out_dir = os.path.join(ROOT, "results", "validation", PEER + ("-quick" if quick else ""))
    results, t0 = [], time.time()
    for pt in points(quick):
        out = os.path.join(out_dir, "runs", pt["id"] + ".json")
        if not os.path.exists(out):
            os.makedirs(os.path.dirname(out), exist_ok=True)
            cmd = ["nice", os.path.join(ROOT, "dfsim"), "run", pt["config"]]
            for k, v in pt["settings"].items():
                cmd += ["--set", f"{k}={v}"]
            t1 = time.time()
            subprocess.run(cmd + ["-o", out, "--quiet"], cwd=ROOT, check=True,
                           stdout=subprocess.DEVNULL)
            print(f"{pt['id']}: {time.time() - t1:.1f} s", file=sys.stderr, flush=True)
        with open(out) as f:
            results.append((pt, json.load(f)))
    print(f"{len(results)} points, {time.time() - t0:.0f} s", file=sys.stderr)
    print(json.dumps(report(results, out_dir), indent=1))
