"""plots/plot_throttling.py on hand-made study documents: the nearest-rank quantiles, the
grouping by APP_MECHANISM variant, points whose application did not finish counted and left
out (a congestor without a slowdown is no such point: an open-ended one's rounds may outlast
the application), the table's rows and the figure's panels; swept caps (static_RATE) in rate
order and the runtime re-based on the unthrottled run alone."""

import json
import os
import shutil
import tempfile
import unittest

import fixture  # noqa: F401  (puts plots/ on the path)

import figure_common  # noqa: F401  (Agg backend before pyplot)
import dfsim_results as dr
import plot_throttling as pt
import matplotlib.pyplot as plt


def doc(variant, app, a2a, node_cycles):
    def job(name, s):
        return {"name": name, "slowdown": {"runtime": s} if s else {"runtime": None}}
    return {"dfsim": {}, "sweep": {"variant": variant},
            "run": {"node_cycles_increase": node_cycles},
            "jobs": [job("app", app), job("a2a", a2a), {"name": "inc"}]}


class PlotThrottling(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="dfsim-throttling-")
        points = [("lattice_none", 3.0, 2.0, 2.5), ("lattice_none", 5.0, None, 3.0),
                  ("lattice_none", 4.0, 2.2, 2.8), ("lattice_aimd", 2.0, 1.5, 1.6),
                  ("amg_static", 1.1, 4.0, 2.0), ("lattice_none", None, 2.1, None)]
        for i, (v, a, b, n) in enumerate(points):
            os.makedirs(os.path.join(cls.dir, v), exist_ok=True)
            with open(os.path.join(cls.dir, v, "seed%d.json" % i), "w") as f:
                json.dump(doc(v, a, b, n), f)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir, ignore_errors=True)

    def test_quantile_nearest_rank(self):
        self.assertEqual(dr.quantile([4, 1, 3, 2], 50), 2)
        self.assertEqual(dr.quantile([4, 1, 3, 2], 99), 4)
        self.assertEqual(dr.quantile(list(range(1, 101)), 99), 99)
        self.assertIsNone(dr.quantile([], 50))

    def test_collect_and_table(self):
        data = pt.collect([self.dir])
        cell = data[("lattice", "none")]
        self.assertEqual(sorted(cell["app"]), [3.0, 4.0, 5.0])
        self.assertEqual(sorted(cell["congestor"]), [2.0, 2.1, 2.2])
        self.assertEqual(cell["unfinished"], 1)  # the application's, not the congestor's
        text = pt.table(data)
        self.assertIn("| lattice | none | 3 | 4.00 | 5.00 | 2.10 | - | 2.80 | - | - | - | 1 |",
                      text)
        self.assertIn("| lattice | AIMD c=0 | 1 | 2.00 | 2.00 | 1.50 | - | 1.60 | - | - | - | 0 |",
                      text)
        self.assertLess(text.index("| lattice |"), text.index("| amg |"))
        with self.assertRaises(dr.ResultError):
            pt.collect([os.path.join(self.dir, "nothing")])

    def test_caps_and_unthrottled_baseline(self):
        def point(variant, seed, runtime, alone):
            return {"dfsim": {}, "sweep": {"variant": variant, "point": {"sim.seed": seed}},
                    "run": {}, "jobs": [{"name": "app", "runtime_cycles": runtime,
                                         "alone": {"runtime_cycles": alone},
                                         "slowdown": {"runtime": runtime / alone}}]}
        d = tempfile.mkdtemp(prefix="dfsim-throttling-cap-")
        try:
            # seed 1: alone unthrottled 100 cycles; the 0.05 cap alone takes 400, beside the
            # congestor 420 (1.05 against its own alone run, 4.2 against the unthrottled one)
            for v, seed, run, alone in [("md_none", 1, 300, 100), ("md_static_0.05", 1, 420, 400),
                                        ("md_static", 1, 200, 150), ("md_static_0.5", 1, 280, 100),
                                        ("md_aimd", 1, 150, 100), ("md_static_0.1", 2, 50, 40)]:
                os.makedirs(os.path.join(d, v), exist_ok=True)
                with open(os.path.join(d, v, "seed%d.json" % seed), "w") as f:
                    json.dump(point(v, seed, run, alone), f)
            data = pt.collect([d])
            self.assertEqual(pt.mechanisms_of(data),
                             ["none", "static_0.05", "static_0.1", "static", "static_0.5", "aimd"])
            self.assertEqual(pt.label("static", pt.mechanisms_of(data)), "static 0.3")
            self.assertEqual(pt.label("static_0.05"), "static 0.05")
            self.assertAlmostEqual(data[("md", "static_0.05")]["app"][0], 1.05)
            rebased = pt.rebase_unthrottled(data)
            self.assertAlmostEqual(rebased[("md", "static_0.05")]["app"][0], 4.2)
            self.assertAlmostEqual(rebased[("md", "static")]["app"][0], 2.0)
            self.assertEqual(rebased[("md", "static_0.1")]["app"], [])  # no none twin: dropped
        finally:
            shutil.rmtree(d, ignore_errors=True)

    def test_figure_panels(self):
        fig = pt.figure(pt.collect([self.dir]))
        self.assertEqual([ax.get_title() for ax in fig.axes],
                         ["lattice", "amg", "congestor (a2a)"])
        plt.close(fig)
        fig = pt.figure(pt.collect([self.dir]), congestor_panel=False)
        self.assertEqual([ax.get_title() for ax in fig.axes], ["lattice", "amg"])
        plt.close(fig)


if __name__ == "__main__":
    unittest.main()
