"""Small result documents made by the real ./dfsim for the plot tests (h=2: 72 nodes, a few
hundred cycles, a few milliseconds per run), built once per test process in a temporary directory.
"""

import atexit
import contextlib
import copy
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PLOTS = os.path.dirname(HERE)
ROOT = os.path.dirname(PLOTS)
DFSIM = os.environ.get("DFSIM", os.path.join(ROOT, "dfsim"))
BASE = os.path.join(ROOT, "conf", "default.cfg")

sys.path.insert(0, PLOTS)

TINY = ["topology.h=2", "topology.a=4", "topology.p=2",
        "sim.warmup_cycles=200", "sim.measure_cycles=600"]

# The grid of the main data set: 2 routings x 2 patterns x 2 loads x 2 seeds, round robin;
# plus the age arbiter at ADVc 0.4.
ROUTINGS = {"min": ["routing.mechanism=min"],
            "itcrg": ["routing.mechanism=in_transit", "routing.global_policy=crg"]}
PATTERNS = ["uniform", "adversarial_consecutive"]
LOADS = [0.2, 0.4]
SEEDS = [1, 2]

_cache = {}


def run_dfsim(out, settings):
    """One `dfsim run` of conf/default.cfg with the tiny settings plus `settings`."""
    if not os.access(DFSIM, os.X_OK):
        raise RuntimeError("%s not found: build it first (make dfsim)" % DFSIM)
    cmd = [DFSIM, "run", BASE, "--quiet", "-o", out]
    for s in TINY + settings:
        cmd += ["--set", s]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return out


def data_dir():
    """Directory of plain `dfsim run` documents (no "sweep" object), made once."""
    if "runs" in _cache:
        return _cache["runs"]
    root = tempfile.mkdtemp(prefix="dfsim-plots-")
    atexit.register(shutil.rmtree, root, True)
    runs = os.path.join(root, "runs")
    os.makedirs(runs)
    for name, routing in sorted(ROUTINGS.items()):
        for pattern in PATTERNS:
            for load in LOADS:
                for seed in SEEDS:
                    out = os.path.join(runs, "%s_%s_%g_%d.json" % (name, pattern, load, seed))
                    run_dfsim(out, routing + ["traffic.pattern=" + pattern,
                                              "traffic.load=%g" % load, "sim.seed=%d" % seed])
        for seed in SEEDS:
            out = os.path.join(runs, "%s_age_%d.json" % (name, seed))
            run_dfsim(out, routing + ["traffic.pattern=adversarial_consecutive",
                                      "traffic.load=0.4", "router.arbiter=age",
                                      "sim.seed=%d" % seed])
    _cache["runs"] = runs
    _cache["root"] = root
    return runs


def scaling_dir():
    """ADVc 0.4 on h = 2 and 3 (a = 2h, p = h) for two routings, one seed."""
    if "scaling" in _cache:
        return _cache["scaling"]
    data_dir()
    out_dir = os.path.join(_cache["root"], "scaling")
    os.makedirs(out_dir)
    for h in (2, 3):
        for name, routing in sorted(ROUTINGS.items()):
            out = os.path.join(out_dir, "%s_h%d.json" % (name, h))
            run_dfsim(out, routing + ["topology.h=%d" % h, "topology.a=%d" % (2 * h),
                                      "topology.p=%d" % h, "traffic.load=0.4",
                                      "traffic.pattern=adversarial_consecutive"])
    _cache["scaling"] = out_dir
    return out_dir


JOBS_SWEEP = """name = "jobs";
base = "%s";
set = { sim = { isolate = true; }; };
axes = { jobs = { app = { placement = ["contiguous", "random_nodes"]; };
                  bg = { load = [0.0, 0.6]; }; };
         sim = { seed = [1, 2]; }; };
variants = ( { name = "MIN"; routing = { mechanism = "min"; }; } );
"""


def jobs_dir():
    """A sweep of conf/jobs/interference_small.cfg: placement x background load x 2 seeds, MIN,
    with sim.isolate (8 points, about a second)."""
    if "jobs" in _cache:
        return _cache["jobs"]
    data_dir()
    out_dir = os.path.join(_cache["root"], "jobs")
    sweep = os.path.join(_cache["root"], "jobs.cfg")
    with open(sweep, "w", encoding="utf-8") as f:
        f.write(JOBS_SWEEP % os.path.join(ROOT, "conf", "jobs", "interference_small.cfg"))
    subprocess.run([DFSIM, "sweep", sweep, "-o", out_dir, "--jobs", "2", "--quiet"], check=True,
                   stdout=subprocess.DEVNULL)
    _cache["jobs"] = out_dir
    return out_dir


def load_doc(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def write_doc(path, doc):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1)


def variant_doc(doc, load=None, offered=None, accepted=None):
    """A copy of a real document with some numbers replaced (for exact-value tests)."""
    d = copy.deepcopy(doc)
    if load is not None:
        d["config"]["traffic"]["load"] = load
    if offered is not None:
        d["load"]["offered"] = offered
    if accepted is not None:
        d["load"]["accepted"] = accepted
    return d


def new_tmpdir():
    path = tempfile.mkdtemp(prefix="dfsim-plots-t-")
    atexit.register(shutil.rmtree, path, True)
    return path


def quiet(main, argv):
    """main(argv) with its stdout (the names of the files written) swallowed."""
    with contextlib.redirect_stdout(io.StringIO()):
        return main(argv)
