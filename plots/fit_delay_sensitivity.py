#!/usr/bin/python3
"""A job's delay sensitivity from data: over the points of a sweep that vary the congestion a
closed-loop job meets (e.g. a background job's load), fit its runtime T against its mean message
latency M by least squares, T = c_raw * M + k, and report

  c_raw  the slope: cycles of runtime per cycle of mean message latency (for a ping-pong of I
         iterations, 2 I: the messages on its critical path)
  c      the slope normalised to the job, c_raw * mean(M) / mean(T): the relative growth of its
         runtime per relative growth of its latency (1 for a ping-pong without compute, near 0
         for a job whose runtime is compute); the value jobs.NAME.delay_sensitivity takes
  k      the intercept (cycles: what no latency costs), and r, the correlation of T with M

    plots/fit_delay_sensitivity.py results/sensitivity            # every closed-loop job
    plots/fit_delay_sensitivity.py results/sensitivity --job app --write conf/x.cfg

--write FILE sets `delay_sensitivity = c;` in the job called --job of a config file (replacing
the one it has); the job must have `throttle = "aimd"` to read it. Points whose job did not
finish (capped) are left out. Exit status 2 on bad input (no documents, a job with fewer than 2
points, a constant latency).
"""

import argparse
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import dfsim_results as dr  # noqa: E402


class Fit:
    def __init__(self, job, n, c_raw, k, r, mean_m, mean_t):
        self.job, self.n, self.c_raw, self.k, self.r = job, n, c_raw, k, r
        self.mean_m, self.mean_t = mean_m, mean_t
        self.c = c_raw * mean_m / mean_t if mean_t else 0.0


def fit_line(ms, ts):
    """Least squares T = c * M + k over the pairs; (c, k, r). ResultError when it cannot fit."""
    n = len(ms)
    if n < 2:
        raise dr.ResultError("%d point(s): a fit needs at least 2" % n)
    mm, mt = sum(ms) / n, sum(ts) / n
    sxx = sum((m - mm) ** 2 for m in ms)
    syy = sum((t - mt) ** 2 for t in ts)
    sxy = sum((m - mm) * (t - mt) for m, t in zip(ms, ts))
    if sxx == 0:
        raise dr.ResultError("the mean message latency is the same at every point: vary the "
                             "congestion (e.g. a background job's load)")
    c = sxy / sxx
    r = sxy / math.sqrt(sxx * syy) if syy > 0 else 0.0
    return c, mt - c * mm, r


def job_points(paths):
    """{job name: [(M, T), ...]} over the result documents under paths (finished closed-loop
    jobs only), in file order."""
    points = {}
    found = False
    for _, doc in dr.job_documents(paths):
        found = True
        for job in doc["jobs"]:
            if job.get("kind") != "closed loop" or not job.get("finished"):
                continue
            m = job["messages"]["latency"]["mean"]
            t = job["runtime_cycles"]
            points.setdefault(job["name"], []).append((float(m), float(t)))
    if not found:
        raise dr.ResultError("no dfsim result documents with jobs in %s" % ", ".join(paths))
    return points


def fit_jobs(points, names=None):
    fits = []
    for name in names or sorted(points):
        if name not in points:
            raise dr.ResultError("no finished closed-loop job '%s' (jobs: %s)"
                                 % (name, ", ".join(sorted(points)) or "none"))
        ms = [p[0] for p in points[name]]
        ts = [p[1] for p in points[name]]
        try:
            c, k, r = fit_line(ms, ts)
        except dr.ResultError as e:
            raise dr.ResultError("job '%s': %s" % (name, e))
        fits.append(Fit(name, len(ms), c, k, r, sum(ms) / len(ms), sum(ts) / len(ts)))
    return fits


def table(fits):
    lines = ["%-16s %6s %10s %12s %14s %7s" % ("job", "points", "c", "c_raw", "k (cycles)", "r")]
    for f in fits:
        lines.append("%-16s %6d %10.4f %12.4f %14.1f %7.4f"
                     % (f.job, f.n, f.c, f.c_raw, f.k, f.r))
    return "\n".join(lines)


def _job_span(text, job):
    """(start, end) of the braces of the job group called job in config text."""
    m = re.search(r'name\s*=\s*"%s"\s*;' % re.escape(job), text)
    if not m:
        raise dr.ResultError("no job named '%s' in the config" % job)
    start = text.rfind("{", 0, m.start())
    depth, i = 0, start
    while i < len(text):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return start, i
        i += 1
    raise dr.ResultError("the group of job '%s' is not closed" % job)


def write_sensitivity(text, job, c):
    """The config text with delay_sensitivity = c; in the job called job (replaced if set)."""
    start, end = _job_span(text, job)
    group = text[start:end]
    value = "delay_sensitivity = %.6g;" % c
    pattern = re.compile(r"delay_sensitivity\s*=\s*[^;]*;")
    if pattern.search(group):
        group = pattern.sub(value, group, count=1)
    else:
        group = group.rstrip() + " " + value + " "
    return text[:start] + group + text[end:]


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("inputs", nargs="+", metavar="SWEEP_DIR_OR_JSON")
    p.add_argument("--job", action="append", metavar="NAME",
                   help="job to fit (repeatable; default every finished closed-loop job)")
    p.add_argument("--write", metavar="CONFIG",
                   help="set the fitted c as delay_sensitivity of --job (one) in CONFIG")
    args = p.parse_args(argv)
    if args.write and (not args.job or len(args.job) != 1):
        raise dr.ResultError("--write needs exactly one --job")
    fits = fit_jobs(job_points(args.inputs), args.job)
    print(table(fits))
    if args.write:
        with open(args.write, encoding="utf-8") as f:
            text = f.read()
        text = write_sensitivity(text, args.job[0], fits[0].c)
        with open(args.write, "w", encoding="utf-8") as f:
            f.write(text)
        print("%s: jobs.%s.delay_sensitivity = %.6g" % (args.write, args.job[0], fits[0].c))
    return []


if __name__ == "__main__":
    try:
        main()
    except dr.ResultError as e:
        print("%s: %s" % (os.path.basename(sys.argv[0]), e), file=sys.stderr)
        sys.exit(2)
