"""plots/fit_delay_sensitivity.py: the least-squares fit on exact and degenerate data, the
normalised c of a ping-pong (1) against a compute-bound job (near 0) on runs of the real ./dfsim
under three background loads, and --write into a config that ./dfsim then accepts."""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import fixture

import dfsim_results as dr
import fit_delay_sensitivity as fit

CONFIG = """topology = { p = 2; a = 4; h = 2; };
sim = { warmup_cycles = 300; };
jobs = (
  { name = "pp"; nodes = 2; placement = "random_nodes"; motif = "pingpong";
    message_bytes = 64; iterations = 40; },
  { name = "cpu"; nodes = 8; placement = "random_nodes"; motif = "halo3d";
    message_bytes = 64; iterations = 4; compute_cycles = 5000; },
  { name = "bg"; nodes = 62; placement = "contiguous"; pattern = "uniform"; load = 0.1;
    message_bytes = 256; }
);
"""


class FitLine(unittest.TestCase):
    def test_exact_line(self):
        ms = [100.0, 150.0, 230.0, 400.0]
        c, k, r = fit.fit_line(ms, [3 * m + 500 for m in ms])
        self.assertAlmostEqual(c, 3, places=9)
        self.assertAlmostEqual(k, 500, places=6)
        self.assertAlmostEqual(r, 1, places=9)

    def test_anticorrelated(self):
        c, _, r = fit.fit_line([1.0, 2.0, 3.0], [9.0, 7.0, 4.0])
        self.assertLess(c, 0)
        self.assertLess(r, -0.9)

    def test_degenerate(self):
        with self.assertRaises(dr.ResultError):
            fit.fit_line([5.0], [10.0])
        with self.assertRaises(dr.ResultError):
            fit.fit_line([5.0, 5.0, 5.0], [10.0, 11.0, 12.0])

    def test_normalised_c(self):
        # T = 2 I M exactly (a ping-pong without compute): c = 1 whatever I.
        ms = [100.0, 120.0, 160.0]
        points = {"pp": [(m, 80 * m) for m in ms]}
        f = fit.fit_jobs(points)[0]
        self.assertAlmostEqual(f.c_raw, 80, places=9)
        self.assertAlmostEqual(f.c, 1, places=9)


class WriteConfig(unittest.TestCase):
    def test_insert_and_replace(self):
        text = 'jobs = ( { name = "a"; motif = "barrier"; },\n { name = "b"; nodes = 2; } );\n'
        once = fit.write_sensitivity(text, "b", 0.25)
        self.assertIn('{ name = "b"; nodes = 2; delay_sensitivity = 0.25; }', once)
        self.assertIn('{ name = "a"; motif = "barrier"; }', once)
        twice = fit.write_sensitivity(once, "b", 1.5)
        self.assertEqual(twice.count("delay_sensitivity"), 1)
        self.assertIn("delay_sensitivity = 1.5;", twice)
        with self.assertRaises(dr.ResultError):
            fit.write_sensitivity(text, "c", 1)


class OnDfsimRuns(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not os.access(fixture.DFSIM, os.X_OK):
            raise unittest.SkipTest("./dfsim not built")
        cls.dir = tempfile.mkdtemp(prefix="dfsim-fit-")
        cls.cfg = os.path.join(cls.dir, "fit.cfg")
        with open(cls.cfg, "w") as f:
            f.write(CONFIG)
        for load in ("0.05", "0.4", "0.7"):
            subprocess.run([fixture.DFSIM, "run", cls.cfg, "--quiet", "-o",
                            os.path.join(cls.dir, "bg%s.json" % load),
                            "--set", "jobs.bg.load=" + load], check=True,
                           stdout=subprocess.DEVNULL)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir, ignore_errors=True)

    def test_pingpong_one_compute_near_zero(self):
        fits = {f.job: f for f in fit.fit_jobs(fit.job_points([self.dir]))}
        self.assertEqual(sorted(fits), ["cpu", "pp"])  # open-loop bg is not fitted
        self.assertEqual(fits["pp"].n, 3)
        self.assertAlmostEqual(fits["pp"].c, 1, delta=0.1)
        self.assertGreater(fits["pp"].r, 0.99)
        self.assertLess(fits["cpu"].c, 0.2)

    def test_command_line_writes_config(self):
        cfg = os.path.join(self.dir, "write.cfg")
        with open(cfg, "w") as f:
            f.write(CONFIG.replace('iterations = 40;', 'iterations = 40; throttle = "aimd";'))
        out = subprocess.run([sys.executable, os.path.join(fixture.PLOTS, "fit_delay_sensitivity.py"),
                              self.dir, "--job", "pp", "--write", cfg],
                             stdout=subprocess.PIPE, universal_newlines=True, check=True).stdout
        self.assertIn("jobs.pp.delay_sensitivity", out)
        info = subprocess.run([fixture.DFSIM, "info", cfg], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, universal_newlines=True)
        self.assertEqual(info.returncode, 0, info.stdout)
        bad = subprocess.run([sys.executable,
                              os.path.join(fixture.PLOTS, "fit_delay_sensitivity.py"),
                              self.dir, "--job", "nope"], stderr=subprocess.PIPE,
                             universal_newlines=True)
        self.assertEqual(bad.returncode, 2)
        self.assertIn("no finished closed-loop job 'nope'", bad.stderr)


if __name__ == "__main__":
    unittest.main()
