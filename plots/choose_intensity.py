#!/usr/bin/python3
"""The congestor intensity that puts a reference job at a chosen unthrottled slowdown, from a
calibration sweep: points that vary the congestors' `intensity` (and the placement, by seed)
with the reference job's slowdown measured (`sim.isolate`). Per intensity it lists the points
and the reference job's runtime slowdown (nearest-rank quartiles, as dfsim's p50), then
interpolates the median linearly in log(slowdown) between the two intensities that bracket
the target.

    plots/choose_intensity.py results/throttling_calibration --job app --target 2

The intensity of a point is that of its congestors: every other job that sets `intensity`
(they must agree; --knob NAME reads one job's instead). Points where the reference job did
not finish are counted as "capped" and left out. Exit status 2 on bad input (no documents,
no slowdown, congestors at different intensities), 1 when no two intensities bracket the
target (the table says where the medians lie).
"""

import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import dfsim_results as dr  # noqa: E402


def point_intensity(doc, job, knob=None):
    """The congestors' intensity of one document (config.jobs[].intensity)."""
    jobs = doc.get("config", {}).get("jobs", [])
    values = {j["name"]: float(j.get("intensity", 1)) for j in jobs if j.get("name") != job}
    if knob is not None:
        if knob not in values:
            raise dr.ResultError("no job '%s' to read the intensity from" % knob)
        return values[knob]
    distinct = sorted(set(values.values()))
    if len(distinct) != 1:
        raise dr.ResultError("the congestors have intensities %s: name one with --knob"
                             % ", ".join("%s %g" % kv for kv in sorted(values.items())))
    return distinct[0]


def slowdowns(paths, job, knob=None):
    """{intensity: ([slowdown, ...], capped)} over the documents under paths."""
    out = {}
    found = False
    for path, doc in dr.job_documents(paths):
        ref = [j for j in doc["jobs"] if j.get("name") == job]
        if not ref:
            continue
        found = True
        i = point_intensity(doc, job, knob)
        values, capped = out.setdefault(i, ([], [0]))
        s = (ref[0].get("slowdown") or {}).get("runtime")
        if s is None:
            if "slowdown" not in ref[0]:
                raise dr.ResultError("%s: job '%s' has no slowdown (run the sweep with "
                                     "sim.isolate = true)" % (path, job))
            capped[0] += 1
            continue
        values.append(float(s))
    if not found:
        raise dr.ResultError("no result documents with a job '%s' in %s" % (job, ", ".join(paths)))
    return {i: (v, c[0]) for i, (v, c) in out.items()}


def choose(medians, target):
    """The intensity whose median slowdown is target, interpolated in log(slowdown) between
    the nearest bracketing pair of (intensity, median), intensities ascending; None if none
    brackets it."""
    pts = sorted(medians)
    for (i0, m0), (i1, m1) in zip(pts, pts[1:]):
        if min(m0, m1) <= target <= max(m0, m1):
            if m0 == m1:
                return i0
            f = (math.log(target) - math.log(m0)) / (math.log(m1) - math.log(m0))
            return i0 + f * (i1 - i0)
    return None


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("inputs", nargs="+", metavar="SWEEP_DIR_OR_JSON")
    p.add_argument("--job", default="app", help="the reference job (default app)")
    p.add_argument("--target", type=float, default=2.0,
                   help="its median slowdown to reach (default 2)")
    p.add_argument("--knob", metavar="NAME", help="read the intensity of this job only")
    args = p.parse_args(argv)
    if args.target <= 0:
        print("choose_intensity.py: --target must be > 0", file=sys.stderr)
        return 2
    try:
        data = slowdowns(args.inputs, args.job, args.knob)
    except dr.ResultError as e:
        print("choose_intensity.py: %s" % e, file=sys.stderr)
        return 2
    print("%10s %6s %6s %8s %8s %8s %8s %8s" % ("intensity", "points", "capped", "min", "q1",
                                                 "median", "q3", "max"))
    medians = []
    for i in sorted(data):
        v, capped = data[i]
        if not v:
            print("%10g %6d %6d %8s" % (i, 0, capped, "-"))
            continue
        q = [dr.quantile(v, x) for x in (25, 50, 75)]
        print("%10g %6d %6d %8.3f %8.3f %8.3f %8.3f %8.3f" % (i, len(v), capped, min(v), q[0],
                                                              q[1], q[2], max(v)))
        medians.append((i, q[1]))
    chosen = choose(medians, args.target)
    if chosen is None:
        print("no two intensities bracket a median slowdown of %g" % args.target)
        return 1
    print("intensity for a median slowdown of %g: %.4g" % (args.target, chosen))
    return 0


if __name__ == "__main__":
    sys.exit(main())
