#!/usr/bin/python3
"""peer_speed: dfsim's speed on the very points whose speed was measured with BookSim2 and
FOGSim (results/validation/peers/), as whole-process wall times on this machine.

    /usr/bin/python3 tools/peer_speed.py [--repeat 3] [-o results/validation/speed]

For each peer row it runs ./dfsim on the same network, windows, routing, traffic and load
(the validation suite's mapping of each peer's set-up, tools/validation/), takes the fastest of --repeat runs of the whole process (start-up and
writing the document included), and writes OUT/README.md and OUT/speed.csv: the peer's wall
time and router-cycles/s as recorded (with its machine and commit), dfsim's as measured now,
and their ratio. The peers' figures are whole runs too (BookSim2's includes its drain; FOGSim
runs no drain). Run it on an otherwise idle machine: it is a benchmark, not a test.
"""

import argparse
import csv
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PEERS = os.path.join(ROOT, "results", "validation", "peers")

sys.path.insert(0, os.path.join(ROOT, "tools"))
from validation import booksim2, fogsim  # noqa: E402  (the validation suite's mappings)


def booksim_points():
    """The speed extract's rows (k = 2..6; k=8 ran 300 cycles only, a footprint probe), with
    the validation suite's mapping of BookSim2's set-up and its windows per k."""
    with open(os.path.join(PEERS, "booksim2_speed.csv")) as f:
        speed = {(r["k"], r["routing"], r["offered"]): r for r in csv.DictReader(f)}
    for point in booksim2.points():
        pk = point["peer"]
        key = (str(pk["k"]), pk["routing"], "%g" % pk["offered"])
        row = speed.pop(key, None) if pk["set"] == "speed" and pk["traffic"] == "uniform" else None
        if row is None:
            continue
        yield {"peer": "BookSim2", "label": "k=%s %s UN %s" % key, "config": point["config"],
               "settings": point["settings"], "routers": int(row["routers"]),
               "cycles": point["settings"]["sim.warmup_cycles"] +
               point["settings"]["sim.measure_cycles"],
               "peer_wall_s": float(row["wall_total_s"]),
               "peer_rcs": float(row["router_cycles_per_s_whole_run"]),
               "peer_rss_mb": float(row["peak_rss_MB"])}


def fogsim_points():
    """FOGSim's 14 h=6 speed runs (750 + 750 cycles), with the validation suite's mapping of
    FOGSim's set-up on the h=3 base config grown to h=6."""
    with open(os.path.join(PEERS, "fogsim_h2_h3.csv")) as f:
        for row in csv.DictReader(f):
            if row["set"] != "h6":
                continue
            point = fogsim._row_point(row)
            settings = dict(point["settings"])
            settings.update({"topology.p": 6, "topology.a": 12, "topology.h": 6})
            yield {"peer": "FOGSim", "label": "h=6 %s %s %s %s" % (
                       row["routing"], row["arb"], row["traffic"], row["offered"]),
                   "config": "conf/validation/fogsim_h3.cfg", "settings": settings,
                   "routers": int(row["routers"]),
                   "cycles": int(row["warmup"]) + int(row["measured"]),
                   "peer_wall_s": float(row["wall_s"]),
                   "peer_rcs": float(row["router_cycles_per_s"]),
                   "peer_rss_mb": float(row["maxrss_kb"]) / 1024}


def run_dfsim(config, settings, repeat):
    """(fastest whole-process wall time, peak RSS MiB) of ./dfsim on the point."""
    with tempfile.TemporaryDirectory() as scratch:
        out = os.path.join(scratch, "point.json")
        cmd = ["./dfsim", "run", config, "--quiet", "-o", out]
        for key, value in settings.items():
            if isinstance(value, bool):
                value = "true" if value else "false"
            cmd += ["--set", "%s=%s" % (key, value)]
        best = rss = None
        for _ in range(repeat):
            start = time.perf_counter()
            child = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL)
            _, status, usage = os.wait4(child.pid, 0)
            wall = time.perf_counter() - start
            if os.waitstatus_to_exitcode(status) != 0:
                raise SystemExit("peer_speed: %s failed" % " ".join(cmd))
            best = wall if best is None else min(best, wall)
            rss = usage.ru_maxrss / 1024  # KiB on Linux
    return best, rss


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("-o", "--out", default=os.path.join(ROOT, "results", "validation",
                                                            "speed"))
    args = parser.parse_args(argv[1:])
    rows = []
    for point in list(booksim_points()) + list(fogsim_points()):
        wall, rss = run_dfsim(point["config"], point["settings"], args.repeat)
        point.update(dfsim_wall_s=wall, dfsim_rcs=point["routers"] * point["cycles"] / wall,
                     dfsim_rss_mb=rss,
                     speedup=point["peer_wall_s"] / wall)
        rows.append(point)
        if sys.stderr.isatty():
            sys.stderr.write("\r%d points timed" % len(rows))
    if sys.stderr.isatty():
        sys.stderr.write("\n")
    os.makedirs(args.out, exist_ok=True)
    write_csv(rows, os.path.join(args.out, "speed.csv"))
    write_markdown(rows, os.path.join(args.out, "README.md"), args.repeat, machine_line())
    return 0


def write_csv(rows, path):
    keys = ["peer", "label", "routers", "peer_wall_s", "peer_rcs", "peer_rss_mb",
            "dfsim_wall_s", "dfsim_rcs", "dfsim_rss_mb", "speedup"]
    with open(path + ".tmp", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=keys, extrasaction="ignore")
        w.writeheader()
        for r in rows:
            w.writerow({k: (("%.4g" % r[k]) if isinstance(r[k], float) else r[k]) for k in keys})
    os.replace(path + ".tmp", path)


PAGE_HEAD = """# dfsim's speed against BookSim2 and FOGSim, point for point

*Part of the dfsim documentation; start at the [README](../../../README.md). This page is
written by `make bench-peers` ([tools/peer_speed.py](../../../tools/peer_speed.py)); the
machine and the date of the measurement are below.*

**What is compared.** The peers' speed was measured by the dfsim authors on a 2-vCPU AMD EPYC
virtual machine (32 MiB L3, 23 GiB RAM), one simulation at a time: BookSim2 at commit
`28f43299f1706a3160ffac721ca461d74eb6e618` (its `dragonflynew` network, k = 2..6, uniform
traffic, MIN and UGAL; [peers/booksim2.md](../peers/booksim2.md)) and FOGSim v5 at commit
`dcdd75f76788a367d4f71e7eaae131907ee8441f` (the 5,256-node reference network, 750 + 750
cycles, fourteen routing, arbiter and traffic combinations; [peers/fogsim.md](../peers/fogsim.md)).
dfsim runs the same points (network, windows, routing, traffic, load, with the validation
suite's mapping of each peer's set-up: [../README.md](../README.md)) on a machine of the same
kind. Every figure is a whole process: start-up, the simulated cycles and writing the result
(BookSim2's includes its drain; FOGSim's and dfsim's runs have none); dfsim's is the fastest of
%(repeat)d runs, the peers' one run each (their repeats varied by about 15 %%). The peers were
not rerun for this page: their figures are as recorded, so the ratio also holds whatever drift
the machine had between the two measurements (the same dfsim binary has run up to 2x slower on
this kind of VM from one week to the next; see [tools/README.md](../../../tools/README.md)).

These points simulate 1,500 to 5,000 cycles, and both sides' figures include their start-up
(BookSim2's network construction, dfsim's reading of its config, about 10 ms), which weighs
most on the smallest networks, where the ratio is lowest. For dfsim at the length of a study's
point (25,000 cycles), see `make bench`.
"""


def summary(rows, peer):
    ratios = sorted(r["speedup"] for r in rows if r["peer"] == peer)
    if not ratios:
        return "| %s | 0 | | |" % peer
    n = len(ratios)
    median = ratios[n // 2] if n % 2 else (ratios[n // 2 - 1] + ratios[n // 2]) / 2
    return "| %s | %d | %.0fx | %.0fx - %.0fx |" % (peer, n, median, ratios[0], ratios[-1])


def write_markdown(rows, path, repeat, machine):
    lines = [PAGE_HEAD % {"repeat": repeat}, "## Summary", "",
             "Measured %s." % machine, "",
             "| peer | points | peer wall time / dfsim wall time, median | range |",
             "|---|---:|---:|---|",
             summary(rows, "BookSim2"), summary(rows, "FOGSim"), "",
             "## Every point", "",
             "| peer | point | routers | peer wall s | peer router-cycles/s | peer MB | "
             "dfsim wall s | dfsim router-cycles/s | dfsim MiB | peer / dfsim wall |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        lines.append("| %s | %s | %d | %.2f | %.0f k | %.0f | %.3f | %.0f k | %.0f | %.0fx |" % (
            r["peer"], r["label"], r["routers"], r["peer_wall_s"], r["peer_rcs"] / 1e3,
            r["peer_rss_mb"], r["dfsim_wall_s"], r["dfsim_rcs"] / 1e3, r["dfsim_rss_mb"],
            r["speedup"]))
    lines.append("")
    lines.append("Peak memory: the peers' as recorded (MB), dfsim's the largest resident set of "
                 "its runs (MiB). The same rows as CSV: [speed.csv](speed.csv).")
    with open(path + ".tmp", "w") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(path + ".tmp", path)


def machine_line():
    """The processor, cores and date of this measurement, for the page."""
    model = "unknown processor"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return "on %s (%d cores), %s, with dfsim %s" % (
        model, os.cpu_count() or 0, time.strftime("%Y-%m-%d"), dfsim_version())


def dfsim_version():
    out = subprocess.run(["./dfsim", "--version"], cwd=ROOT, capture_output=True, text=True)
    return out.stdout.strip().replace("dfsim ", "", 1) or "unknown"


if __name__ == "__main__":
    sys.exit(main(sys.argv))
