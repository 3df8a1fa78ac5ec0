"""plots/plot_aries_bias.py on hand-made study documents: the variant names, the pooling of
every seed's iterations, the normalisation to adaptive_0's median, unfinished points counted,
the table's rows and the figure's panels."""

import json
import os
import shutil
import tempfile
import unittest

import fixture  # noqa: F401  (puts plots/ on the path)

import figure_common  # noqa: F401  (Agg backend before pyplot)
import plot_aries_bias as pa
import matplotlib.pyplot as plt


def doc(variant, cycles, finished=True, fraction=None):
    app = {"name": "app", "finished": finished, "iterations": {"job_cycles": cycles}}
    if fraction is not None:
        app["selector"] = {"fraction_default": fraction}
    return {"dfsim": {}, "sweep": {"variant": variant}, "jobs": [app, {"name": "bg"}]}


POINTS = [
    # two seeds of adaptive_0: pooled iterations 100, 200, 300, 400 -> median (nearest rank) 200
    ("alltoall-256B-none-adaptive_0", [100, 300], True, None),
    ("alltoall-256B-none-adaptive_0", [200, 400], True, None),
    ("alltoall-256B-none-adaptive_3", [50, 100, 150], True, None),
    ("alltoall-256B-none-app_aware", [100, 120], False, 0.25),
    ("alltoall-256B-none-app_aware", [140], True, 0.75),
    ("barrier-0B-uniform-adaptive_0", [10, 10, 10], True, None),
    ("barrier-0B-uniform-adaptive_3", [20], True, None),
    ("not-a-study-point", [1], True, None),
    ("halo3d-256B-none-adaptive_9", [1], True, None),
]


class PlotAriesBias(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="dfsim-aries-bias-")
        for i, (v, cycles, finished, frac) in enumerate(POINTS):
            os.makedirs(os.path.join(cls.dir, v), exist_ok=True)
            with open(os.path.join(cls.dir, v, "seed%d.json" % i), "w") as f:
                json.dump(doc(v, cycles, finished, frac), f)
        # a stale point of an older config: not part of the sweep
        os.makedirs(os.path.join(cls.dir, ".stale", "barrier-0B-uniform-adaptive_3"))
        with open(os.path.join(cls.dir, ".stale", "barrier-0B-uniform-adaptive_3", "x.json"),
                  "w") as f:
            json.dump(doc("barrier-0B-uniform-adaptive_3", [1000]), f)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir, ignore_errors=True)

    def test_parse_variant(self):
        self.assertEqual(pa.parse_variant("pingpong_inter-16384B-group_pair-app_aware"),
                         ("pingpong_inter", 16384, "group_pair", "app_aware"))
        self.assertEqual(pa.parse_variant("barrier-0B-none-adaptive_3"),
                         ("barrier", 0, "none", "adaptive_3"))
        self.assertIsNone(pa.parse_variant("barrier-0-none-adaptive_3"))
        self.assertIsNone(pa.parse_variant("barrier-0B-none-adaptive_9"))
        self.assertIsNone(pa.parse_variant("MIN"))

    def test_backgrounds_in_study_order(self):
        keys = {("a", 0, "uniform"), ("a", 0, "group_pair_0.6"), ("a", 0, "none"),
                ("a", 0, "uniform_0.3")}
        self.assertEqual(pa.backgrounds_of(keys),
                         ["none", "uniform_0.3", "group_pair_0.6", "uniform"])

    def test_collect_pools_seeds(self):
        data = pa.collect([self.dir])
        self.assertEqual(set(data), {("alltoall", 256, "none"), ("barrier", 0, "uniform")})
        a2a = data[("alltoall", 256, "none")]
        self.assertEqual(sorted(a2a["adaptive_0"]["cycles"]), [100, 200, 300, 400])
        self.assertEqual(a2a["app_aware"]["unfinished"], 1)
        self.assertEqual(a2a["app_aware"]["fraction_default"], [0.25, 0.75])
        self.assertEqual(data[("barrier", 0, "uniform")]["adaptive_3"]["cycles"], [20])

    def test_normalised_to_adaptive_0_median(self):
        norm = pa.normalised(pa.collect([self.dir]))
        a2a = norm[("alltoall", 256, "none")]
        self.assertEqual(sorted(a2a["adaptive_0"]), [0.5, 1.0, 1.5, 2.0])
        self.assertEqual(a2a["adaptive_3"], [0.25, 0.5, 0.75])
        self.assertEqual(norm[("barrier", 0, "uniform")]["adaptive_3"], [2.0])

    def test_table(self):
        rows = pa.table(pa.collect([self.dir])).splitlines()
        self.assertEqual(len(rows), 4)  # header, rule, two cells
        self.assertEqual(rows[2], "| alltoall | 256 | none | 200 | 1.00 | 0.50 | 0.60 | 0.50 | 1 |")
        self.assertEqual(rows[3], "| barrier | 0 | uniform | 10 | 1.00 | 2.00 | - | - | 0 |")

    def test_wide_table(self):
        rows = pa.wide_table(pa.collect([self.dir])).splitlines()
        self.assertEqual(rows[0], "| motif | size (B) | adaptive_0, no bg (cycles) | none | "
                                  "uniform |")
        self.assertEqual(rows[2], "| alltoall | 256 | 200 | 0.50 / 0.60 | - / - |")
        self.assertEqual(rows[3], "| barrier | 0 | - | - / - | 2.00 / - |")

    def test_figure_panels(self):
        fig = pa.figure(pa.collect([self.dir]))
        titles = [ax.get_title() for ax in fig.axes]
        self.assertEqual(titles, ["background: none", "background: uniform"])
        plt.close(fig)

    def test_no_points(self):
        empty = tempfile.mkdtemp(prefix="dfsim-aries-bias-empty-")
        try:
            with self.assertRaises(pa.dr.ResultError):
                pa.collect([empty])
        finally:
            shutil.rmtree(empty)



class FullTable(unittest.TestCase):
    """--full: every mode of the full-size study, the QCD of the pooled iterations, the NIC's
    s and L and the decision fractions (means over the points)."""

    def test_rows(self):
        d = tempfile.mkdtemp(prefix="dfsim-aries-full-")
        self.addCleanup(shutil.rmtree, d, ignore_errors=True)
        points = [("pingpong_intra-256B-production-adaptive_0", [100, 200, 300, 400], 0.5, 0.1),
                  ("pingpong_intra-256B-production-adaptive_0_intra", [100, 100, 300], 0.2, 0.0),
                  ("pingpong_intra-256B-production-adaptive_3_nofar", [150], 0.0, 0.0)]
        for i, (v, cycles, nonmin, phantom) in enumerate(points):
            app = {"name": "app", "finished": True, "iterations": {"job_cycles": cycles},
                   "nic": {"s": 0.25 * (i + 1), "L": 300 + i}, "routing": {"misrouted_global": 0.0},
                   "misrouted": {"nonminimal_decisions": nonmin, "phantom": phantom}}
            with open(os.path.join(d, "p%d.json" % i), "w") as f:
                json.dump({"dfsim": {}, "sweep": {"variant": v}, "jobs": [app]}, f)
        text = pa.full_table(pa.collect([d]))
        # adaptive_0: quartiles 100 and 300 -> QCD 0.5; median 200
        self.assertIn("| pingpong_intra 256 | adaptive_0 | 200 | 1.00 | 0.500 | 0.250 | 300 | "
                      "0.000 | 0.500 | 0.100 | 0 |", text)
        self.assertIn("| pingpong_intra 256 | adaptive_0_intra | 100 | 0.50 | 0.500 | 0.500 | "
                      "301 | 0.000 | 0.200 | 0.000 | 0 |", text)
        # the table's order is FULL_MODES', not the files'
        self.assertLess(text.index("adaptive_3_nofar"), text.index("adaptive_0_intra"))
        self.assertIsNone(pa.qcd([]))
        self.assertAlmostEqual(pa.qcd([1, 1, 3, 3]), 0.5)


if __name__ == "__main__":
    unittest.main()
