"""The scripts on a tiny sweep run by `dfsim sweep`: the point documents, sweep.json's groups
and saturation searches, and variants named ROUTING_SETTING."""

import os
import subprocess
import unittest

import fixture

import figure_common  # noqa: F401  (Agg backend before pyplot)
import dfsim_results as dr
import plot_breakdown
import plot_injection
import plot_load
import table_fairness
import matplotlib.pyplot as plt
from matplotlib.container import ErrorbarContainer

SWEEP = """
name = "tiny";
base = "%(base)s";
set = {
    topology = { p = 2; a = 4; h = 2; };
    sim = { warmup_cycles = 200; measure_cycles = 600; };
};
axes = {
    traffic = { pattern = ["uniform", "adversarial_consecutive"]; load = [0.2, 0.4]; };
    sim = { seed = [1, 2]; };
};
variants = (
    { name = "MIN_RR+TP"; router = { arbiter = "round_robin"; transit_priority = true; };
      routing = { mechanism = "min"; }; },
    { name = "IT-CRG_RR+TP"; router = { arbiter = "round_robin"; transit_priority = true; };
      routing = { mechanism = "in_transit"; global_policy = "crg"; }; },
    { name = "MIN_Age"; router = { arbiter = "age"; transit_priority = false; };
      routing = { mechanism = "min"; }; },
    { name = "IT-CRG_Age"; router = { arbiter = "age"; transit_priority = false; };
      routing = { mechanism = "in_transit"; global_policy = "crg"; }; },
    { name = "VAL-sat"; routing = { mechanism = "valiant"; };
      sim = { warmup_cycles = 2000; measure_cycles = 3000; };  # steady enough to bisect
      saturation = true; resolution = 0.1; }
);
"""


class TestTinySweep(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        tmp = fixture.new_tmpdir()
        cfg = os.path.join(tmp, "tiny.cfg")
        with open(cfg, "w") as f:
            f.write(SWEEP % {"base": fixture.BASE})
        cls.dir = os.path.join(tmp, "out")
        subprocess.run([fixture.DFSIM, "sweep", cfg, "--jobs", "2", "--quiet", "-o", cls.dir],
                       check=True, stdout=subprocess.DEVNULL)
        cls.groups = dr.load_groups([cls.dir])

    def tearDown(self):
        plt.close("all")

    def test_groups(self):
        # 4 variants x 2 patterns x 2 loads; the saturation steps are not points
        self.assertEqual(len(self.groups), 16)
        self.assertEqual({g.variant for g in self.groups}, {"MIN", "IT-CRG"})
        self.assertEqual({g.setting for g in self.groups}, {"RR+TP", "Age"})
        self.assertEqual({g.load for g in self.groups}, {0.2, 0.4})
        for g in self.groups:
            self.assertEqual(g.seeds, 2)
            self.assertEqual(g.sweep_name, "tiny")

    def test_statistics_agree_with_dfsim_merge(self):
        for g in self.groups:
            self.assertIn("accepted", g.overrides)  # taken from sweep.json
            for metric in ("accepted", "latency_mean", "cov", "min_injected_load"):
                mine = dr.mean_ci([r.metric(metric) for r in g.records])
                theirs = g.stat(metric)
                self.assertAlmostEqual(mine.mean, theirs.mean, places=9)
                self.assertAlmostEqual(mine.ci95, theirs.ci95, delta=1e-3 * (mine.ci95 + 1e-9))

    def test_sweep_json_figures_are_the_tables(self):
        figures = dr.RESULT_SCHEMA["figures"]
        in_points = [f["name"] for f in sorted(figures, key=lambda f: f["sweep_rank"])
                     if f["sweep_rank"] > 0]
        averaged = [f["name"] for f in figures if f["averaged"]]
        index, = dr.find_sweep_indexes([self.dir])
        for p in index["points"]:
            # after file, variant, point, hash, index; then every scalar metric by its path
            self.assertEqual(list(p)[5:], in_points + ["metrics"])
            self.assertEqual(p["metrics"]["load.accepted"], p["accepted"])
            self.assertIn("latency.breakdown.global_queues", p["metrics"])
            self.assertNotIn("timing.wall_seconds", p["metrics"])
        for g in index["groups"]:
            self.assertEqual(list(g)[3:], averaged + ["metrics"])  # after variant, point, seeds
            self.assertIn("starved", g["max_min"])
            self.assertEqual(g["metrics"]["latency.mean"], {k: g["latency_mean"][k]
                                                            for k in ("mean", "ci95")})

    def test_saturation_from_sweep(self):
        sat = dr.sweep_saturation(dr.find_sweep_indexes([self.dir]))
        self.assertIn(("VAL-sat", "UN"), sat)
        self.assertIn(("VAL-sat", "ADVc"), sat)
        self.assertGreater(sat[("VAL-sat", "UN")], 0.25)  # VAL under UN: about 0.5
        self.assertLess(sat[("VAL-sat", "UN")], 0.65)
        steps = dr.load_records([self.dir], saturation_steps=True)
        self.assertGreater(len(steps), len(dr.load_records([self.dir])))

    def test_load_figure(self):
        fig = plot_load.draw_load(plot_load.load_panels(self.groups), "t")
        axes = [ax for ax in fig.axes if ax.get_visible()]
        self.assertEqual(len(axes), 4)
        for ax in axes:
            labels = [c.get_label() for c in ax.containers if isinstance(c, ErrorbarContainer)]
            self.assertEqual(labels, ["MIN (RR+TP)", "MIN (Age)", "IT-CRG (RR+TP)",
                                      "IT-CRG (Age)"])

    def test_injection_panels(self):
        pattern, load = dr.choose_traffic_point(self.groups)
        self.assertEqual((pattern, load), ("ADVc", 0.4))
        panels = plot_injection.injection_panels(self.groups, pattern, load)
        self.assertEqual([s for s, _ in panels], ["RR+TP", "Age"])
        self.assertEqual([b.label for b in panels[0][1]], ["MIN", "IT-CRG"])

    def test_scripts_write_files(self):
        out = fixture.new_tmpdir()
        for module, args in [(plot_load, ["--setting", "Age"]),
                             (plot_injection, []),
                             (plot_breakdown, ["--variant", "IT-CRG"])]:
            png = os.path.join(out, module.__name__ + ".png")
            self.assertEqual(module.main([self.dir, "-o", png] + args), [png])
            self.assertGreater(os.path.getsize(png), 5000)
        md = os.path.join(out, "fairness.md")
        self.assertEqual(fixture.quiet(table_fairness.main, [self.dir, "-o", md]), 0)
        with open(md) as f:
            self.assertEqual(f.read().count("### "), 4)  # 2 patterns x 2 settings

if __name__ == "__main__":
    unittest.main()
