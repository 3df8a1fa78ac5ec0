#!/usr/bin/env python3
"""The validation suite: run dfsim on the points measured with peer simulators and compare.

    tools/validate.py [--peer NAME]... [--quick] [--jobs N] [--force] [--dfsim PATH]

For every peer module (tools/validation/fogsim.py, booksim2.py, codes.py; a missing one is
skipped with a note) it runs each point once,

    ./dfsim run CONFIG --set KEY=VALUE ... -o results/validation/<peer>/runs/<id>.json --quiet

in a pool of --jobs workers (default: the number of cores), skipping points whose document
already exists and holds the point's settings (resume; --force reruns them all), then calls
the module's report(), which writes results/validation/<peer>/table.md, table.csv and the
overlay figures (*.png), and prints the summary it returns. Progress goes to stderr, only
when stderr is a terminal. See results/validation/README.md.

A peer module defines:
  PEER        its name, also the output folder name
  TOLERANCES  {metric: {"pct": tolerance in %, "why": reason}} asserted by the quick test
  points(quick=False) -> [dict(id, config, settings, peer)]: id unique per dfsim run (points
              sharing an id share one run), config repo-relative, settings {key: value} for
              --set, peer the peer's figures and labels
  report(results, out_dir) -> summary dict; results = [(point, document or None)]
  compare(point, doc) -> [checks] (optional; tools/validation/__init__.py)

Exit status: 0, or 1 if a run failed (its point is reported as such) or a module is broken.
"""
import argparse
import concurrent.futures
import importlib
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))

MODULES = ("fogsim", "booksim2", "codes")

# Keys dropped from the stored documents: per-router lists no report reads (keeps the tree small).
DROP = (("fairness", "per_router_injected"), ("fairness", "group0_injected_load"))


def load_modules(names):
    mods = []
    for name in names:
        if not os.path.exists(os.path.join(ROOT, "tools", "validation", name + ".py")):
            print(f"validate: no tools/validation/{name}.py, peer {name} skipped", file=sys.stderr)
            continue
        mods.append(importlib.import_module("validation." + name))
    return mods


def run_dir(module):
    return os.path.join(ROOT, "results", "validation", module.PEER)


def doc_path(module, point):
    return os.path.join(run_dir(module), "runs", point["id"] + ".json")


def command(dfsim, point, out):
    cmd = [dfsim, "run", point["config"]]
    for k, v in point["settings"].items():
        cmd += ["--set", f"{k}={_value(v)}"]
    return cmd + ["-o", out, "--quiet"]


def _value(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def shrink(path):
    with open(path) as f:
        doc = json.load(f)
    for outer, inner in DROP:
        doc.get(outer, {}).pop(inner, None)
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=False)
        f.write("\n")
    os.replace(tmp, path)


def run_point(dfsim, point, out):
    """Run one point into out (atomically); returns (rc, stderr tail, seconds)."""
    os.makedirs(os.path.dirname(out), exist_ok=True)
    tmp = out + ".part.json"
    t0 = time.time()
    p = subprocess.run(command(dfsim, point, tmp), cwd=ROOT, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True)
    if p.returncode == 0:
        shrink(tmp)
        os.replace(tmp, out)
    elif os.path.exists(tmp):
        os.remove(tmp)
    return p.returncode, p.stderr[-600:], time.time() - t0


def stale(path, point):
    """True if the document at path was not made with the point's settings (a module's mapping
    changed since): every --set key found in the document's config must hold the same value."""
    doc = read_doc(path)
    if doc is None:
        return True
    cfg = doc.get("config", {})
    for key, want in point["settings"].items():
        node = cfg
        for part in key.split("."):
            if not isinstance(node, dict) or part not in node:
                node = None
                break
            node = node[part]
        if node is None or isinstance(node, (dict, list)):
            continue
        if isinstance(want, bool) or isinstance(node, bool):
            same = bool(node) == (want if isinstance(want, bool) else str(want) == "true")
        elif isinstance(node, (int, float)):
            try:
                same = abs(float(node) - float(want)) <= 1e-9 * max(1.0, abs(float(want)))
            except (TypeError, ValueError):
                same = False
        else:
            same = str(node) == str(want)
        if not same:
            return True
    return False


def read_doc(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def run_all(modules, jobs, force, quick, dfsim):
    """Run every missing point of every module; returns {module: [(point, doc)]}, failures."""
    work, plan = [], {}
    for m in modules:
        pts = m.points(quick=quick)
        plan[m] = pts
        seen = set()
        for pt in pts:
            if pt["id"] in seen:
                continue
            seen.add(pt["id"])
            out = doc_path(m, pt)
            if force or not os.path.exists(out) or stale(out, pt):
                work.append((m, pt, out))
    tty = sys.stderr.isatty()
    failures = {}
    done, t0 = 0, time.time()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futs = {pool.submit(run_point, dfsim, pt, out): (m, pt, out) for m, pt, out in work}
        for fut in concurrent.futures.as_completed(futs):
            m, pt, out = futs[fut]
            rc, err, _ = fut.result()
            done += 1
            if rc != 0:
                failures[(m.PEER, pt["id"])] = (rc, err.strip().splitlines()[-1:] or [""])[0]
                print(f"validate: {m.PEER} {pt['id']}: dfsim exit {rc}: {err.strip()[-300:]}",
                      file=sys.stderr)
            if tty:
                el = time.time() - t0
                eta = el / done * (len(work) - done)
                print(f"\rvalidate: {done}/{len(work)} runs, {el:.0f} s, ~{eta:.0f} s left ",
                      end="", file=sys.stderr, flush=True)
    if tty and work:
        print(file=sys.stderr)
    results = {}
    for m, pts in plan.items():
        results[m] = [(pt, read_doc(doc_path(m, pt))) for pt in pts]
    return results, failures, len(work), time.time() - t0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--peer", action="append", choices=MODULES,
                    help="only this peer (repeatable; default: all)")
    ap.add_argument("--quick", action="store_true",
                    help="only the small subset the tests run "
                         "(into results/validation/<peer>-quick)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                    help="simulations at once (default: the number of cores)")
    ap.add_argument("--force", action="store_true", help="rerun points whose document exists")
    ap.add_argument("--dfsim", default=os.path.join(ROOT, "dfsim"), help="the dfsim binary")
    args = ap.parse_args(argv)
    if not os.access(args.dfsim, os.X_OK):
        print(f"validate: {args.dfsim} not found; run make first", file=sys.stderr)
        return 1
    modules = load_modules(args.peer or MODULES)
    if args.quick:
        for m in modules:
            m_peer = m.PEER
            # quick runs go to their own folder so they never mix with the full suite's
            m.PEER = m_peer + "-quick" if not m_peer.endswith("-quick") else m_peer
    results, failures, ran, secs = run_all(modules, args.jobs, args.force, args.quick, args.dfsim)
    print(f"validate: {ran} runs in {secs:.0f} s ({args.jobs} at once)")
    rc = 1 if failures else 0
    for m, res in results.items():
        try:
            summary = m.report(res, run_dir(m))
        except Exception as e:  # a broken module must not hide the others' reports
            print(f"validate: {m.PEER}: report failed: {e!r}", file=sys.stderr)
            rc = 1
            continue
        print(f"{m.PEER}: " + json.dumps(summary, sort_keys=True))
    return rc


if __name__ == "__main__":
    sys.exit(main())
