"""plots/plot_link_load.py on documents made by ./dfsim with stats.link_load: the matrices
against the hand bound of ADV+1 under MIN (the one global link from group g to g+1 carries
the nodes' load x p x a, every other none) and against the document's per-link arrays, the
figure's two heat maps, the command line's PNG (byte-identical on a second run) and its error
on a document without link load."""

import os
import subprocess
import sys
import unittest

import fixture

import figure_common  # noqa: F401  (Agg backend before pyplot)
import dfsim_results as dr
import plot_link_load as pl
import matplotlib.pyplot as plt


def script_run(args):
    return subprocess.run([sys.executable, os.path.join(fixture.PLOTS, "plot_link_load.py")]
                          + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True)


class PlotLinkLoad(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = fixture.new_tmpdir()
        cls.adv = fixture.run_dfsim(os.path.join(cls.dir, "adv1.json"),
                                    ["traffic.pattern=ADV+1", "traffic.load=0.1",
                                     "sim.measure_cycles=4000", "stats.link_load=true"])
        cls.plain = fixture.run_dfsim(os.path.join(cls.dir, "plain.json"), [])

    def tearDown(self):
        plt.close("all")

    def test_adv1_bound(self):
        ll = pl.LinkLoad(dr.load_document(self.adv), group=3)
        self.assertEqual((ll.groups, ll.per_group, ll.cycles), (9, 4, 4000))
        for g in range(9):
            for h in range(9):
                if h == (g + 1) % 9:
                    # 0.1 x p x a = 0.8 phits/cycle, within the noise of 4,000 cycles
                    self.assertAlmostEqual(ll.global_[g][h], 0.8, delta=0.12)
                else:
                    self.assertEqual(ll.global_[g][h], 0.0)

    def test_matrices_hold_every_phit(self):
        doc = dr.load_document(self.adv)
        ll = pl.LinkLoad(doc, group=3)
        total = sum(doc["link_load"]["global"]["phits"]) / 4000.0
        self.assertAlmostEqual(sum(map(sum, ll.global_)), total, places=9)
        loc = doc["link_load"]["local"]
        mine = sum(p for f, p in zip(loc["from"], loc["phits"]) if f // 4 == 3) / 4000.0
        self.assertAlmostEqual(sum(map(sum, ll.local)), mine, places=9)
        self.assertGreater(mine, 0)
        self.assertEqual([ll.local[i][i] for i in range(4)], [0.0] * 4)

    def test_figure(self):
        ll = pl.LinkLoad(dr.load_document(self.adv))
        fig = pl.draw_link_load(ll, "t")
        images = [ax for ax in fig.axes if ax.images]
        self.assertEqual(len(images), 2)
        self.assertEqual(images[0].images[0].get_array().shape, (9, 9))
        self.assertEqual(images[1].images[0].get_array().shape, (4, 4))

    def test_command_line(self):
        out = os.path.join(self.dir, "ll.png")
        for _ in range(2):
            r = script_run([self.adv, "-o", out])
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(out, "rb") as f:
                data = f.read()
            self.assertTrue(data.startswith(b"\x89PNG"))
            if _ == 0:
                first = data
        self.assertEqual(first, data)
        self.assertIn("global links     72", r.stdout)

    def test_errors(self):
        r = script_run([self.plain, "-o", os.path.join(self.dir, "x.png")])
        self.assertEqual(r.returncode, 2)
        self.assertIn("no link_load", r.stderr)
        r = script_run([self.adv, "--group", "9", "-o", os.path.join(self.dir, "x.png")])
        self.assertEqual(r.returncode, 2)
        self.assertIn("groups 0..8", r.stderr)


if __name__ == "__main__":
    unittest.main()
