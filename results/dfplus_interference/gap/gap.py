#!/usr/bin/env python3
"""gap.py: why is a randomly placed app so well protected from the background? Runs the
candidate causes of issue 32, one at a time, on a few points of the Dragonfly+ interference
study, and prints the app's slowdown for each (mean message latency at bg load HEAVY over
the same point at bg load 0, mean over the seeds).

Points (the quick twin by default, --full for conf/jobs/dfplus_interference.cfg):
  UN 4 KB at 25 % and 120 % of a global link, contiguous and random placement;
  a broadcast of 4 KB (80 %) on the random placement, root inside a background group and
  outside it.

  python3 results/dfplus_interference/gap/gap.py [--full] [--seeds N] [--jobs N]
        [--only NAME,...] [--points all|un|bcast] [--measure CYCLES] [--out FILE.json]

Each candidate is a list of --set overrides applied to every point (bg's load is scaled by
its own factor for the intensity candidates). Run from the repository root."""
import argparse
import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

TWIN = dict(base="conf/jobs/dfplus_interference_small.cfg",
            contiguous="dfplus/contiguous_small.txt", random="dfplus/random_small.txt",
            root_inside=0, root_outside=5, bcast_iterations=4)  # rank 0: group 1; rank 5: group 4
FULL = dict(base="conf/jobs/dfplus_interference.cfg",
            contiguous="dfplus/contiguous_3456.txt", random="dfplus/random_3456.txt",
            root_inside=1, root_outside=0, bcast_iterations=1)  # rank 1: group 0; rank 0: group 3
HEAVY = 1.3  # bg load (TGLL 130 %)

# The router the README's study ran (before model version 2): a hash among the minimal ports
# and output buffers of 4 packets. Every candidate below changes one thing of it (or two).
V1 = ["routing.min_choice=hash", "buffers.output=32"]

# name: (description, --set overrides, factor on bg's load)
CANDIDATES = {
    "baseline": ("the study as run (model version 1)", V1, 1.0),
    "packet_4k": ("packets of 4 KB (256 phits), buffers of 2 packets",
                  V1 + ["traffic.packet_size=256", "buffers.local=512", "buffers.global=512",
                        "buffers.output=512"], 1.0),
    "buffers_x4": ("input and output buffers x4",
                   V1 + ["buffers.local=128", "buffers.global=1024", "buffers.output=128"], 1.0),
    "output_queued": ("output buffer of 512 phits: packets join the output on arrival",
                      V1 + ["buffers.output=512"], 1.0),
    "speedup_2": ("crossbar speedup 2 (the study's is 4)", V1 + ["router.speedup=2"], 1.0),
    "min_occupancy": ("routing.min_choice = occupancy", V1 + ["routing.min_choice=occupancy"],
                      1.0),
    "age_arbiter": ("age arbitration instead of round robin", V1 + ["router.arbiter=age"], 1.0),
    "model_v2": ("today's defaults: occupancy among minimal ports, output-queued", [], 1.0),
    "bg_per_pair": ("bg intensity per group pair: each bg node sends TGLL to each partner "
                    "(bg load x2)", V1, 2.0),
    "min_routing": ("every packet routed minimally (FPAR off)", V1 + ["routing.mechanism=min"],
                    1.0),
    "min_and_per_pair": ("minimal routing and bg intensity per pair",
                         V1 + ["routing.mechanism=min"], 2.0),
    "v2_per_pair": ("today's defaults and bg intensity per pair", [], 2.0),
    "v2_hol": ("today's min choice, 4-packet outputs, bg intensity per pair",
               ["buffers.output=32"], 2.0),
}


def points(sys_):
    """(label, placement, app settings) of the points of one candidate."""
    un = lambda interval: ["jobs.app.pattern=uniform", "jobs.app.process=periodic",
                           "jobs.app.message_bytes=4096", f"jobs.app.interval_cycles={interval}"]
    bcast = lambda root: ["jobs.app.pattern=none", "jobs.app.motif=broadcast_flat",
                          f"jobs.app.root={root}", "jobs.app.message_bytes=4096",
                          "jobs.app.compute_cycles=320",
                          f"jobs.app.iterations={sys_['bcast_iterations']}"]
    out = []
    for level, interval in (("25", 1024), ("120", 213)):
        for placement in ("random", "contiguous"):
            out.append((f"UN-4K-{level} {placement}", placement, un(interval)))
    out.append(("bcast root inside", "random", bcast(sys_["root_inside"])))
    out.append(("bcast root outside", "random", bcast(sys_["root_outside"])))
    return out


def run_point(dfsim, sys_, sets, bg_load, placement, app_sets, seed, cycles):
    with tempfile.TemporaryDirectory() as tmp:
        doc = os.path.join(tmp, "r.json")
        cmd = [dfsim, "run", sys_["base"], "-o", doc, "--set", f"sim.seed={seed}",
               "--set", f"jobs.bg.load={bg_load}",
               "--set", f"jobs.app.allocation_file={sys_[placement]}"]
        for s in cycles + sets + app_sets:
            cmd += ["--set", s]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError(" ".join(cmd) + "\n" + p.stderr)
        with open(doc) as f:
            d = json.load(f)
    app = next(j for j in d["jobs"] if j["name"] == "app")
    return app["messages"]["latency"]["mean"], app["load"]["accepted"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--full", action="store_true")
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", default="")
    ap.add_argument("--out", default="")
    ap.add_argument("--dfsim", default="./dfsim")
    ap.add_argument("--points", default="all", choices=["all", "un", "bcast"],
                    help="only the UN points or only the broadcast ones")
    ap.add_argument("--measure", type=int, default=40000, help="cycles of the window")
    a = ap.parse_args()
    sys_ = FULL if a.full else TWIN
    cycles = ["sim.warmup_cycles=5000", f"sim.measure_cycles={a.measure}"]
    chosen = [p for p in points(sys_)
              if a.points == "all" or p[0].startswith("UN" if a.points == "un" else "bcast")]
    names = a.only.split(",") if a.only else list(CANDIDATES)
    tasks = []
    for name in names:
        desc, sets, factor = CANDIDATES[name]
        for label, placement, app_sets in chosen:
            for bg in (0.0, HEAVY):
                for seed in range(1, a.seeds + 1):
                    tasks.append((name, label, bg, seed,
                                  (a.dfsim, sys_, sets, bg * factor, placement, app_sets,
                                   seed, cycles)))
    with ThreadPoolExecutor(a.jobs) as pool:
        futures = [pool.submit(run_point, *t[4]) for t in tasks]
        results = [f.result() for f in futures]
    table = {}
    for t, (lat, acc) in zip(tasks, results):
        name, label, bg, seed = t[:4]
        table.setdefault(name, {}).setdefault(label, {}).setdefault(bg, []).append((lat, acc))
    rows = []
    labels = [p[0] for p in chosen]
    print("| candidate | " + " | ".join(labels) + " |")
    print("|---|" + "---:|" * len(labels))
    for name in names:
        cells = []
        for label in labels:
            base = table[name][label][0.0]
            heavy = table[name][label][HEAVY]
            slow = sum(h[0] / b[0] for h, b in zip(heavy, base)) / len(base)
            lat0 = sum(b[0] for b in base) / len(base)
            cells.append(f"{slow:.2f} ({lat0:,.0f})")
            rows.append(dict(candidate=name, point=label, slowdown=slow, latency_bg0=lat0,
                             latency_heavy=sum(h[0] for h in heavy) / len(heavy),
                             accepted_bg0=[b[1] for b in base],
                             accepted_heavy=[h[1] for h in heavy]))
        print(f"| {name} | " + " | ".join(cells) + " |")
    if a.out:
        with open(a.out, "w") as f:
            json.dump(dict(system="full" if a.full else "twin", seeds=a.seeds, heavy=HEAVY,
                           candidates={n: CANDIDATES[n][0] for n in names}, rows=rows), f,
                      indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
