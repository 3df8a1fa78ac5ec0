"""plots/choose_intensity.py: the interpolation in log(slowdown) on exact data, no bracket,
the congestors' intensity read from a document, and the table on synthetic documents."""

import json
import math
import os
import tempfile
import unittest

import fixture  # noqa: F401  (puts plots/ on the path)

import dfsim_results as dr
import choose_intensity as ci


def doc(intensity, slowdown, idle=False):
    jobs = [{"name": "app"}, {"name": "a2a", "intensity": intensity},
            {"name": "inc", "intensity": intensity}]
    if idle:
        jobs.append({"name": "idle"})  # intensity 1 by default
    return {"config": {"jobs": jobs},
            "jobs": [{"name": "app", "slowdown": {"runtime": slowdown}}]}


class Choose(unittest.TestCase):
    def test_log_interpolation(self):
        # medians 1 at 0.1 and 4 at 0.2: slowdown 2 is half-way in log
        self.assertAlmostEqual(ci.choose([(0.1, 1.0), (0.2, 4.0)], 2.0), 0.15, places=12)
        # the first bracketing pair wins, in ascending intensity
        got = ci.choose([(0.1, 1.0), (0.2, 3.0), (0.3, 1.5), (0.4, 9.0)], 2.0)
        self.assertAlmostEqual(got, 0.1 + 0.1 * math.log(2) / math.log(3), places=12)

    def test_no_bracket(self):
        self.assertIsNone(ci.choose([(0.1, 1.01), (0.5, 1.04), (1.0, 1.05)], 2.0))

    def test_intensity_of_a_document(self):
        self.assertEqual(ci.point_intensity(doc(0.06, 1.5), "app"), 0.06)
        with self.assertRaises(dr.ResultError):  # an idle job at 1 disagrees ...
            ci.point_intensity(doc(0.06, 1.5, idle=True), "app")
        self.assertEqual(ci.point_intensity(doc(0.06, 1.5, idle=True), "app", "a2a"), 0.06)

    def test_sweep_directory(self):
        with tempfile.TemporaryDirectory() as d:
            for k, (i, s) in enumerate([(0.05, 1.0), (0.05, 1.2), (0.05, 1.1),
                                        (0.07, 4.0), (0.07, 3.0), (0.07, None)]):
                with open(os.path.join(d, "p%d.json" % k), "w") as f:
                    json.dump(doc(i, s), f)
            data = ci.slowdowns([d], "app")
            self.assertEqual(sorted(data), [0.05, 0.07])
            self.assertEqual(sorted(data[0.05][0]), [1.0, 1.1, 1.2])
            self.assertEqual(data[0.07][1], 1)  # the unfinished point is counted, not used
            self.assertEqual(ci.main([d, "--target", "2"]), 0)
            self.assertEqual(ci.main([d, "--target", "50"]), 1)
            self.assertEqual(ci.main([d, "--job", "nobody"]), 2)


if __name__ == "__main__":
    unittest.main()
