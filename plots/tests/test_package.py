"""The analysis package (plots/dfsim/): every document shape dfsim writes loads into data
frames whose values are the documents' own, the libconfig writer round-trips through ./dfsim,
every routing and UGAL preset has its own style, and plots take any grouping column.

The documents are made here by the real ./dfsim on the 72-node network of conf/default.cfg with
short windows (a few seconds in all)."""

import json
import os
import shutil
import subprocess
import tempfile
import unittest

from fixture import DFSIM, ROOT, BASE, PLOTS  # noqa: F401  (puts plots/ on sys.path)

import dfsim  # noqa: E402  (plots/dfsim, the package)
import dfsim_results as dr  # noqa: E402

TINY = ["topology.h=2", "topology.a=4", "topology.p=2",
        "sim.warmup_cycles=200", "sim.measure_cycles=600"]

SWEEP = """name = "pkg";
base = "%s";
set = { topology = { h = 2; a = 4; p = 2; }; sim = { warmup_cycles = 200; measure_cycles = 600; }; };
axes = { traffic = { load = [0.2, 0.4]; }; };
variants = ( { name = "MIN"; routing = { mechanism = "min"; }; },
             { name = "UGAL-a3"; routing = { mechanism = "ugal"; ugal_preset = "adaptive_3"; }; } );
"""

# Every routing of conf/sweeps/ and the README, every UGAL preset.
ROUTINGS = ["MIN", "VAL", "VAL-any", "Obl-CRG", "Obl-RRG", "PB-CRG", "PB-RRG", "IT-CRG",
            "IT-RRG", "IT-NRG", "IT-MM", "UGAL-L", "UGAL-G", "FPAR"]
PRESETS = ["adaptive_0", "adaptive_1", "adaptive_2", "adaptive_3", "min_hash", "nmin_hash"]


def _run(out, settings, config=BASE):
    cmd = [DFSIM, "run", config, "--quiet", "-o", out]
    for s in settings:
        cmd += ["--set", s]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    with open(out, encoding="utf-8") as f:
        return json.load(f)


def _get(doc, path):
    for key in path.split("."):
        doc = doc[key]
    return doc


class Data:
    root = None

    @classmethod
    def make(cls):
        if cls.root:
            return
        if not os.access(DFSIM, os.X_OK):
            raise unittest.SkipTest("%s not built (make dfsim)" % DFSIM)
        cls.root = tempfile.mkdtemp(prefix="dfsim-pkg-")
        r = cls.root
        os.makedirs(os.path.join(r, "runs"))
        cls.plain = _run(os.path.join(r, "runs", "plain.json"), TINY)
        cls.series = _run(os.path.join(r, "runs", "series.json"),
                          TINY + ["stats.sample_cycles=100", "stats.link_load=true"])
        os.makedirs(os.path.join(r, "jobs"))
        cls.jobs = _run(os.path.join(r, "jobs", "jobs.json"),
                        ["sim.warmup_cycles=500", "sim.measure_cycles=1000", "sim.isolate=true",
                         "stats.sample_cycles=250"],
                        os.path.join(ROOT, "conf", "jobs", "interference_small.cfg"))
        sweep = os.path.join(r, "pkg.cfg")
        with open(sweep, "w", encoding="utf-8") as f:
            f.write(SWEEP % BASE)
        cls.sweep_dir = os.path.join(r, "sweep")
        subprocess.run([DFSIM, "sweep", sweep, "-o", cls.sweep_dir, "--jobs", "2", "--quiet"],
                       check=True, stdout=subprocess.DEVNULL)

    @classmethod
    def cleanup(cls):
        if cls.root:
            shutil.rmtree(cls.root, True)
            cls.root = None


def setUpModule():
    Data.make()


def tearDownModule():
    Data.cleanup()


class TestLoad(unittest.TestCase):
    def test_plain_run_columns_equal_the_document(self):
        path = os.path.join(Data.root, "runs", "plain.json")
        df = dfsim.load(path)
        self.assertEqual(len(df), 1)
        row = df.iloc[0]
        doc = Data.plain
        self.assertEqual(row["path"], path)
        self.assertIsNone(row["sweep"])
        self.assertEqual(row["variant"], "MIN")
        for col in ("load.accepted", "load.offered", "latency.mean", "latency.p99",
                    "latency.breakdown.global_queues", "fairness.max_min", "fairness.cov",
                    "hops.global", "hops.local", "packets.delivered", "network.nodes"):
            self.assertEqual(row[col], _get(doc, col), col)
        for col in ("routing.mechanism", "traffic.load", "traffic.pattern", "sim.seed",
                    "topology.h", "router.arbiter", "buffers.output"):
            self.assertEqual(row[col], _get(doc["config"], col), col)
        # The document holds only the settings in force: a MIN run has no UGAL preset.
        self.assertNotIn("routing.ugal_preset", df.columns)
        # Lists stay out of the run frame.
        self.assertNotIn("fairness.per_router_injected", df.columns)

    def test_series_link_load_steady_state(self):
        path = os.path.join(Data.root, "runs", "series.json")
        row = dfsim.load(path).iloc[0]
        doc = Data.series
        for col in ("link_load.global.max", "link_load.local.jain", "steady_state.steady",
                    "steady_state.samples", "stats.sample_cycles"):
            self.assertEqual(row[col], _get(doc, col) if not col.startswith("stats")
                             else _get(doc["config"], col), col)
        s = dfsim.load_series(os.path.join(Data.root, "runs"))
        self.assertEqual(set(s["path"]), {path})  # the plain run has no series
        n = len(doc["series"]["end_cycle"])
        self.assertEqual(list(s["sample"]), list(range(n)))
        for key in ("end_cycle", "accepted", "latency_mean", "in_flight"):
            self.assertEqual(list(s[key]), doc["series"][key], key)
        with self.assertRaises(dfsim.ResultError):
            dfsim.load_series(os.path.join(Data.root, "runs", "plain.json"))

    def test_jobs_rows(self):
        path = os.path.join(Data.root, "jobs", "jobs.json")
        run = dfsim.load(path)
        self.assertEqual(len(run), 1)
        self.assertEqual(run.iloc[0]["jobs"], len(Data.jobs["config"]["jobs"]))
        df = dfsim.load(path, jobs=True)
        self.assertEqual(list(df["job"]), [j["name"] for j in Data.jobs["jobs"]])
        for i, job in enumerate(Data.jobs["jobs"]):
            row = df.iloc[i]
            for col in ("load.accepted", "latency.p99", "messages.latency.mean", "nodes"):
                self.assertEqual(row[col], _get(job, col), col)
            if "runtime_cycles" in job:
                self.assertEqual(row["runtime_cycles"], job["runtime_cycles"])
            if "slowdown" in job:
                self.assertEqual(row["slowdown.runtime"], job["slowdown"]["runtime"])
            self.assertEqual(row["jobs[].placement"],
                             Data.jobs["config"]["jobs"][i]["placement"])
        self.assertIn("slowdown.runtime", df.columns)  # sim.isolate: the closed-loop app
        # The jobs' own series (series.jobs), one row per job and sample.
        s = dfsim.load_series(path, jobs=True)
        for job in Data.jobs["series"]["jobs"]:
            part = s[s["job"] == job["name"]]
            self.assertEqual(list(part["accepted"]), job["accepted"])
            self.assertEqual(list(part["end_cycle"]), Data.jobs["series"]["end_cycle"])
        self.assertNotIn("jobs", dfsim.load_series(path).columns)

    def test_sweep_points_and_sweep_json(self):
        df = dfsim.load(Data.sweep_dir)
        self.assertEqual(len(df), 4)
        self.assertEqual(set(df["sweep"]), {"pkg"})
        self.assertEqual(sorted(set(df["variant"])), ["MIN", "UGAL-a3"])
        self.assertEqual(sorted(set(df["routing"])), ["MIN", "UGAL-L/adaptive_3"])
        self.assertTrue(df["sweep.hash"].notna().all())
        for _, row in df.iterrows():
            with open(row["path"], encoding="utf-8") as f:
                doc = json.load(f)
            self.assertEqual(row["load.accepted"], doc["load"]["accepted"])
            self.assertEqual(row["traffic.load"], doc["config"]["traffic"]["load"])
            self.assertEqual(row["variant"], doc["sweep"]["variant"])
        groups = dfsim.load(os.path.join(Data.sweep_dir, "sweep.json"))
        self.assertEqual(len(groups), 4)
        with open(os.path.join(Data.sweep_dir, "sweep.json"), encoding="utf-8") as f:
            index = json.load(f)
        for entry in index["groups"]:
            g = groups[(groups["variant"] == entry["variant"]) &
                       (groups["traffic.load"] == entry["point"]["traffic.load"])]
            self.assertEqual(len(g), 1)
            self.assertEqual(g.iloc[0]["load.accepted"], entry["accepted"]["mean"])
            self.assertEqual(g.iloc[0]["latency.mean"], entry["latency_mean"]["mean"])
            self.assertEqual(g.iloc[0]["seeds"], entry["seeds"])
        # Several inputs at once: runs, a sweep folder.
        both = dfsim.load([os.path.join(Data.root, "runs"), Data.sweep_dir])
        self.assertEqual(len(both), 6)

    def test_not_results(self):
        with self.assertRaises(dfsim.ResultError):
            dfsim.load(os.path.join(Data.root, "nowhere"))
        with self.assertRaises(dfsim.ResultError):
            dfsim.load(os.path.join(Data.root, "runs"), jobs=True)

    def test_summarize_refuses_rows_that_differ_beyond_the_seed(self):
        df = dfsim.load(Data.sweep_dir)
        with self.assertRaises(ValueError) as cm:
            dfsim.summarize(df, "variant")
        self.assertIn("traffic.load", str(cm.exception))
        s = dfsim.summarize(df, ["variant", "traffic.load"], ["load.accepted"])
        self.assertEqual(len(s), 4)
        self.assertTrue((s["seeds"] == 1).all())


class TestLibconfig(unittest.TestCase):
    CONFIG = {
        "sim": {"warmup_cycles": 200, "measure_cycles": 600, "seed": 7, "isolate": False},
        "topology": {"kind": "dragonfly", "h": 2, "a": 4, "p": 2},
        "routing": {"mechanism": "ugal", "ugal_preset": "adaptive_2"},
        "traffic": {"pattern": "adversarial", "offset": 2, "load": 0.25},
        "router": {"transit_priority": True, "arbiter": "age"},
    }

    def test_types(self):
        text = dfsim.libconfig.dumps({"a": {"i": 1, "f": 2.0, "b": True, "s": 'x"\\y',
                                            "big": 2**40, "arr": [1, 2.5], "l": [{"x": 1}]}})
        self.assertIn("i = 1;", text)
        self.assertIn("f = 2.0;", text)
        self.assertIn("b = true;", text)
        self.assertIn('s = "x\\"\\\\y";', text)
        self.assertIn("big = 1099511627776L;", text)
        self.assertIn("arr = [1.0, 2.5];", text)
        self.assertIn("l = (", text)
        self.assertEqual(dfsim.libconfig.nest({"routing.mechanism": "min"}),
                         {"routing": {"mechanism": "min"}})
        for bad in ({"x": None}, {"x": float("nan")}, {"x": [1, "a"]}, {"1x": 1}):
            with self.assertRaises(dfsim.libconfig.LibconfigError):
                dfsim.libconfig.dumps(bad)

    def test_round_trip_through_dfsim_info(self):
        text = dfsim.info(self.CONFIG)
        origins = {}
        for line in text.splitlines():
            parts = line.strip().split(" = ", 1)
            if len(parts) == 2 and "." in parts[0]:
                origins[parts[0]] = parts[1].rsplit("  ", 1)[0].strip()
        flat = {g + "." + k: v for g, kv in self.CONFIG.items() for k, v in kv.items()}
        for key, value in flat.items():
            want = dfsim.libconfig.dumps({"x": value}).strip()[4:-1]
            self.assertEqual(origins.get(key), want, key)

    def test_run_dict_and_settings(self):
        out = os.path.join(Data.root, "fromdict.json")
        doc = dfsim.run(self.CONFIG, settings={"traffic.load": 0.3}, out=out)
        self.assertTrue(os.path.exists(out))
        cfg = doc["config"]
        self.assertEqual(cfg["routing"]["ugal_preset"], "adaptive_2")
        self.assertEqual(cfg["traffic"]["load"], 0.3)
        self.assertIs(cfg["router"]["transit_priority"], True)
        self.assertEqual(cfg["sim"]["seed"], 7)
        # A jobs list (groups in a libconfig list) reaches dfsim too.
        jobs = dict(self.CONFIG, jobs=[{"name": "a", "nodes": 36, "pattern": "uniform",
                                        "load": 0.2},
                                       {"name": "b", "nodes": 36, "pattern": "uniform",
                                        "load": 0.1}])
        jdoc = dfsim.run(jobs)
        self.assertEqual([j["name"] for j in jdoc["jobs"]], ["a", "b"])
        self.assertEqual(jdoc["config"]["name"], "python")
        # A relative allocation file is read from the current directory.
        cwd = os.getcwd()
        os.chdir(Data.root)
        try:
            with open("alloc.txt", "w", encoding="utf-8") as f:
                f.write("0-35\n")
            jobs["jobs"][0] = dict(jobs["jobs"][0], placement="file",
                                   allocation_file="alloc.txt")
            adoc = dfsim.run(jobs, name="alloc")
        finally:
            os.chdir(cwd)
        self.assertEqual(adoc["config"]["name"], "alloc")
        self.assertEqual(adoc["jobs"][0]["ranks_to_nodes"], list(range(36)))
        with self.assertRaises(dfsim.DfsimError) as cm:
            dfsim.run(self.CONFIG, settings=["routing.mechanism=nonsense"])
        self.assertIn("nonsense", str(cm.exception))

    def test_sweep(self):
        spec = {"name": "pydict", "base": BASE,
                "set": {"topology": {"h": 2, "a": 4, "p": 2},
                        "sim": {"warmup_cycles": 200, "measure_cycles": 400}},
                "axes": {"traffic": {"load": [0.1, 0.3]}},
                "variants": [{"name": "MIN", "routing": {"mechanism": "min"}},
                             {"name": "FPAR", "routing": {"mechanism": "fpar"}}]}
        df = dfsim.sweep(spec, jobs=2, out=os.path.join(Data.root, "pydict"))
        self.assertEqual(len(df), 4)
        self.assertEqual(sorted(set(df["routing"])), ["FPAR", "MIN"])


class TestStyles(unittest.TestCase):
    def test_every_routing_and_preset_distinct(self):
        # A preset's name and a UGAL-L label with it are the same line ("adaptive_0" is
        # "UGAL-L/adaptive_0"); UGAL-G with a preset has the preset's colour, dashed.
        labels = ROUTINGS + ["UGAL-%s/%s" % (m, p) for m in "LG" for p in PRESETS]
        seen = {}
        for label in labels:
            st = dfsim.style(label)
            seen.setdefault((st["color"], st["marker"], st["linestyle"]), []).append(label)
        self.assertEqual([v for v in seen.values() if len(v) > 1], [])
        # Stronger: no two routings or presets share a colour, nor a marker.
        named = ROUTINGS + PRESETS
        for what in ("color", "marker"):
            values = [dfsim.style(n)[what] for n in named]
            self.assertEqual(len(set(values)), len(values), what)
        # The config's names take their routing's style.
        self.assertEqual(dfsim.style("ugal"), dfsim.style("UGAL-L"))
        self.assertEqual(dfsim.style("fpar"), dfsim.style("FPAR"))
        self.assertNotEqual(dfsim.style("UGAL-G/adaptive_3")["linestyle"],
                            dfsim.style("UGAL-L/adaptive_3")["linestyle"])

    def test_sweep_variants_of_conf_sweeps_have_styles(self):
        """Every routing a sweep of conf/sweeps/ names (variant NAME or NAME_SETTING) is in the
        palette."""
        import glob
        import re
        names = set()
        for path in glob.glob(os.path.join(ROOT, "conf", "sweeps", "*.cfg")):
            with open(path, encoding="utf-8") as f:
                for m in re.finditer(r'name = "([^"]+)"', f.read()):
                    names.add(m.group(1).split("_")[0])
        routings = {n for n in names if dr.style_key(n) is not None}
        self.assertTrue({"MIN", "VAL", "IT-MM", "PB-CRG"} <= routings)
        for name in routings:
            self.assertIn(dr.style_key(name), ROUTINGS + PRESETS, name)

    def test_routing_labels(self):
        cfg = {"routing": {"mechanism": "ugal_g", "ugal_preset": "nmin_hash"}}
        self.assertEqual(dr.routing_label(cfg), "UGAL-G/nmin_hash")
        cfg = {"routing": {"mechanism": "ugal", "ugal_preset": "none"}}
        self.assertEqual(dr.routing_label(cfg), "UGAL-L")
        self.assertEqual(dr.routing_label({"routing": {"mechanism": "fpar"}}), "FPAR")


class TestPlots(unittest.TestCase):
    def test_plot_any_grouping_writes_png(self):
        df = dfsim.load(Data.sweep_dir)
        for by in ("routing", "routing.ugal_preset", ["routing.mechanism", "traffic.pattern"],
                   "variant"):
            out = os.path.join(Data.root, "fig", "%s.png" % by)
            fig = dfsim.plot_load(df, by=by, out=out, title="t", xlabel="x", figsize=(6, 4),
                                  fontsize=7, ylabels={"latency.mean": "lat"})
            self.assertEqual(fig.get_size_inches().tolist(), [6.0, 4.0])
            with open(out, "rb") as f:
                self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
        # A setting along the line instead of the load; one metric, no panels.
        out = os.path.join(Data.root, "fig", "preset_x.png")
        dfsim.plot_load(df, by="traffic.load", x="routing", y="hops.global", panels=None,
                        out=out)
        self.assertTrue(os.path.getsize(out) > 0)

    def test_plot_by_a_setting_some_documents_lack(self):
        """The plain run has no stats group: its line is "-"."""
        df = dfsim.load(os.path.join(Data.root, "runs"))
        fig = dfsim.plot_load(df, by="stats.sample_cycles", y="load.accepted", panels=None)
        labels = [t.get_text() for t in fig.legends[0].get_texts()]
        self.assertEqual(sorted(labels), ["-", "100"])

    def test_plot_names_the_settings_that_differ(self):
        df = dfsim.load(Data.sweep_dir)
        df = df.assign(**{"traffic.load": 0.5})  # two presets/loads now collide on a line
        with self.assertRaises(ValueError) as cm:
            dfsim.plot_load(df, by="traffic.pattern")
        self.assertIn("routing.mechanism", str(cm.exception))

    def test_fairness_table(self):
        df = dfsim.load(Data.sweep_dir)
        table = dfsim.fairness_table(df, by=["routing", "traffic.load"])
        self.assertEqual(list(table["routing"]), ["MIN", "MIN", "UGAL-L/adaptive_3",
                                                  "UGAL-L/adaptive_3"])
        row = df[(df["routing"] == "MIN") & (df["traffic.load"] == 0.2)].iloc[0]
        self.assertEqual(table.iloc[0]["fairness.max_min"], row["fairness.max_min"])
        text = dfsim.fairness_table(df, by=["routing", "traffic.load"], fmt="markdown")
        self.assertEqual(len(text.splitlines()), 6)


class TestScriptsNameTheSetting(unittest.TestCase):
    def test_split_series_names_the_differing_setting(self):
        """Plain runs of one routing with two UGAL biases: the refusal names the setting."""
        d = os.path.join(Data.root, "bias")
        os.makedirs(d)
        for bias in (0, 20):
            _run(os.path.join(d, "b%d.json" % bias),
                 TINY + ["routing.mechanism=ugal", "routing.ugal_bias=%d" % bias])
        groups = dr.load_groups([d])
        with self.assertRaises(dr.ResultError) as cm:
            dr.split_series(groups)
        self.assertIn("routing.ugal_bias", str(cm.exception))
        # Two presets are two routings now: no refusal.
        for preset in ("adaptive_0", "adaptive_3"):
            _run(os.path.join(d, "p_%s.json" % preset),
                 TINY + ["routing.mechanism=ugal", "routing.ugal_preset=" + preset])
        groups = [g for g in dr.load_groups([d]) if "/" in g.variant]
        self.assertEqual(sorted(label for label, _ in dr.split_series(groups)),
                         ["UGAL-L/adaptive_0", "UGAL-L/adaptive_3"])


class TestReadmeExample(unittest.TestCase):
    def test_readme_python_example_runs(self):
        """The README's Python example, as written, from a folder holding ./dfsim and conf/
        (as the repository root before any run), with plots/ on the path as make python
        puts it."""
        with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
            text = f.read()
        start = text.index("## Analysing results in Python")
        block = text[text.index("```python\n", start) + 10:]
        block = block[:block.index("```")]
        self.assertIn("import dfsim", block)
        self.assertLessEqual(len(block.strip().splitlines()), 5)
        scratch = os.path.join(Data.root, "readme")
        os.makedirs(scratch)
        for name in ("dfsim", "conf"):
            os.symlink(os.path.join(ROOT, name), os.path.join(scratch, name))
        env = dict(os.environ, PYTHONPATH=PLOTS, MPLBACKEND="Agg")
        proc = subprocess.run(["/usr/bin/python3", "-c", block], cwd=scratch, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertTrue(os.path.getsize(os.path.join(scratch, "load.png")) > 0)
        self.assertIn("| variant | pattern |", proc.stdout)


class TestImport(unittest.TestCase):
    def test_import_from_plots_folder_without_path_tricks(self):
        """`import dfsim` where plots/ is on the path (what make python's .pth file does)."""
        env = dict(os.environ, PYTHONPATH=PLOTS)
        out = subprocess.run(["/usr/bin/python3", "-c",
                              "import dfsim; print(dfsim.load.__module__)"],
                             cwd=tempfile.gettempdir(), env=env, stdout=subprocess.PIPE,
                             check=True, universal_newlines=True).stdout
        self.assertEqual(out.strip(), "dfsim.frames")

    def test_make_python_writes_the_pth_file(self):
        """make python: a .pth file in the user site-packages (here a scratch PYTHONUSERBASE)
        naming plots/, after which `import dfsim` works from any folder."""
        base = os.path.join(Data.root, "userbase")
        env = dict(os.environ, PYTHONUSERBASE=base)
        env.pop("PYTHONPATH", None)
        subprocess.run(["make", "-s", "--no-print-directory", "python"], cwd=ROOT, env=env,
                       check=True, stdout=subprocess.DEVNULL)
        site = subprocess.run(["/usr/bin/python3", "-m", "site", "--user-site"], env=env,
                              stdout=subprocess.PIPE, universal_newlines=True).stdout.strip()
        with open(os.path.join(site, "dfsim.pth"), encoding="utf-8") as f:
            self.assertEqual(f.read().strip(), PLOTS)
        out = subprocess.run(["/usr/bin/python3", "-c", "import dfsim; print(dfsim.__file__)"],
                             cwd="/", env=env, stdout=subprocess.PIPE, check=True,
                             universal_newlines=True).stdout
        self.assertEqual(out.strip(), os.path.join(PLOTS, "dfsim", "__init__.py"))


if __name__ == "__main__":
    unittest.main()
