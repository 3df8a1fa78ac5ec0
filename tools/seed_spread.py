"""seed_spread: does a model change that alters the random stream keep the results' law?

    seed_spread.py OLD_DFSIM NEW_DFSIM [--seeds N] [--jobs J] [--points a,b,...]
                   [--points-file FILE]

Runs every reference point of tools/refcheck.sh (REFCHECK_LIST=1), or the points of FILE (one
a line, as REFCHECK_LIST prints them: NAME|CONFIG| --set K=V ...; # starts a comment), with
seeds 1..N under both binaries and compares, figure by figure, the mean of the new binary's N results with the old
one's: the difference in standard errors of the difference of two means (Welch), z. A figure
passes while |z| <= 3; one with no spread in either build passes only if equal. Prints a
markdown table per point and a summary; exit status 1 when some figure fails.

The figures: accepted load, mean latency and its 50th, 99th percentiles, the fairness figures
(minimum injected load, max/min, coefficient of variation), and per job the accepted load, the
mean and 99th percentile packet latency and the runtime of closed-loop jobs.
"""
import argparse
import concurrent.futures
import json
import math
import os
import subprocess
import sys
import tempfile

Z_LIMIT = 3.0


def parse_points(text):
    """[(name, config, [--set, K=V, ...])] of lines NAME|CONFIG|SETS (# comments, blanks)."""
    points = []
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, config, sets = line.split("|", 2)
            points.append((name, config, sets.split()))
    return points


def reference_points():
    """The points of tools/refcheck.sh."""
    out = subprocess.run(["sh", "tools/refcheck.sh"], env=dict(os.environ, REFCHECK_LIST="1"),
                         check=True, capture_output=True, text=True).stdout
    return parse_points(out)


def at(doc, *keys):
    for key in keys:
        if not isinstance(doc, dict) or key not in doc or doc[key] is None:
            return None
        doc = doc[key]
    return doc if isinstance(doc, (int, float)) else None


def figures(doc):
    """{figure name: value} of one result document."""
    out = {
        "accepted": at(doc, "load", "accepted"),
        "latency mean": at(doc, "latency", "mean"),
        "latency p50": at(doc, "latency", "p50"),
        "latency p99": at(doc, "latency", "p99"),
        "min injected": at(doc, "fairness", "min_injected_load"),
        "max/min": at(doc, "fairness", "max_min"),
        "cov": at(doc, "fairness", "cov"),
    }
    for job in doc.get("jobs") or []:
        name = job.get("name")
        out["%s accepted" % name] = at(job, "load", "accepted")
        out["%s latency mean" % name] = at(job, "latency", "mean")
        out["%s latency p99" % name] = at(job, "latency", "p99")
        out["%s runtime" % name] = at(job, "runtime_cycles")
    return {key: value for key, value in out.items() if value is not None}


def run_point(dfsim, config, sets, seed, tmpdir, tag):
    path = os.path.join(tmpdir, "%s.json" % tag)
    subprocess.run([dfsim, "run", config, "--quiet", "-o", path, *sets,
                    "--set", "sim.seed=%d" % seed], check=True, capture_output=True)
    with open(path) as f:
        return figures(json.load(f))


def mean_sd(values):
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    return mean, math.sqrt(var)


def z_score(old, new):
    """Welch's z of the difference of the means; None when neither build has spread."""
    (mo, so), (mn, sn) = mean_sd(old), mean_sd(new)
    se = math.sqrt(so * so / len(old) + sn * sn / len(new))
    if se == 0:
        return None if mo == mn else math.inf
    return (mn - mo) / se


def compare(old_runs, new_runs):
    """[(figure, old mean, old sd, new mean, new sd, z, passed)] over the figures both have."""
    rows = []
    names = [name for name in old_runs[0] if all(name in run for run in old_runs + new_runs)]
    for name in names:
        old = [run[name] for run in old_runs]
        new = [run[name] for run in new_runs]
        z = z_score(old, new)
        passed = z is None or abs(z) <= Z_LIMIT
        rows.append((name, *mean_sd(old), *mean_sd(new), z, passed))
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--seeds", type=int, default=6)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--points", default="", help="comma-separated names (default: all)")
    parser.add_argument("--points-file", help="points to run instead of the reference points")
    args = parser.parse_args(argv)
    if args.points_file:
        with open(args.points_file) as f:
            points = parse_points(f.read())
    else:
        points = reference_points()
    if args.points:
        wanted = set(args.points.split(","))
        points = [p for p in points if p[0] in wanted]
    seeds = range(1, args.seeds + 1)
    failed = total = 0
    with tempfile.TemporaryDirectory() as tmpdir, \
            concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = {}
        for name, config, sets in points:
            for build, dfsim in (("old", args.old), ("new", args.new)):
                for seed in seeds:
                    tag = "%s-%s-%d" % (name, build, seed)
                    futures[(name, build, seed)] = pool.submit(
                        run_point, dfsim, config, sets, seed, tmpdir, tag)
        for name, _, _ in points:
            old = [futures[(name, "old", s)].result() for s in seeds]
            new = [futures[(name, "new", s)].result() for s in seeds]
            print("\n### %s (%d seeds each)\n" % (name, args.seeds))
            print("| figure | old mean | old sd | new mean | new sd | z |")
            print("|---|---|---|---|---|---|")
            for figure, mo, so, mn, sn, z, passed in compare(old, new):
                total += 1
                failed += not passed
                shown = "-" if z is None else "%+.2f" % z
                print("| %s | %.4g | %.3g | %.4g | %.3g | %s%s |"
                      % (figure, mo, so, mn, sn, shown, "" if passed else " **FAIL**"))
            sys.stdout.flush()
    print("\nseed_spread: %d figures over %d points, %d with |z| > %g"
          % (total, len(points), failed, Z_LIMIT))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
