"""Each script on small dfsim results: the figure has the expected panels, lines and bars, and the
command line writes a non-empty PNG (and PDF), byte for byte the same on a second run."""

import os
import subprocess
import sys
import unittest

import fixture

import figure_common  # noqa: F401  (Agg backend before pyplot)
import dfsim_results as dr
import plot_breakdown
import plot_injection
import plot_jobs
import plot_load
import plot_scaling
import table_fairness
import table_jobs
from matplotlib.container import BarContainer, ErrorbarContainer
import matplotlib.pyplot as plt

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def script(name):
    return os.path.join(fixture.PLOTS, name)


def run_script(name, args):
    return subprocess.run([sys.executable, script(name)] + args, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True)


def visible_axes(fig):
    return [ax for ax in fig.axes if ax.get_visible()]


def bar_containers(ax):
    return [c for c in ax.containers if isinstance(c, BarContainer)]


def line_containers(ax):
    return [c for c in ax.containers if isinstance(c, ErrorbarContainer)]


class FigureTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.runs = fixture.data_dir()
        cls.groups = dr.load_groups([cls.runs])
        cls.out = fixture.new_tmpdir()

    def tearDown(self):
        plt.close("all")

    def assert_png(self, path):
        self.assertTrue(os.path.isfile(path), path)
        with open(path, "rb") as f:
            data = f.read()
        self.assertGreater(len(data), 5000)
        self.assertEqual(data[:8], PNG_MAGIC)
        return data


class TestPlotLoad(FigureTest):
    def test_figure(self):
        rr = dr.filter_groups(self.groups, settings=["RR"])
        fig = plot_load.draw_load(plot_load.load_panels(rr), "t")
        axes = visible_axes(fig)
        self.assertEqual(len(axes), 4)  # accepted and latency for UN, ADVc
        self.assertEqual([ax.get_title() for ax in axes[:2]], ["UN", "ADVc"])
        for ax in axes:
            lines = line_containers(ax)
            self.assertEqual(len(lines), 2)  # MIN, IT-CRG
            self.assertEqual([c.get_label() for c in lines], ["MIN", "IT-CRG"])
            for c in lines:
                self.assertEqual(len(c.lines[0].get_xdata()), len(fixture.LOADS))
                self.assertTrue(c.has_yerr)  # two seeds: confidence intervals
        self.assertEqual(len(fig.legends), 1)

    def test_cli(self):
        out = os.path.join(self.out, "load.png")
        r = run_script("plot_load.py", [self.runs, "-o", out, "--pdf", "--setting", "RR"])
        self.assertEqual(r.returncode, 0, r.stderr)
        first = self.assert_png(out)
        self.assertTrue(os.path.getsize(os.path.join(self.out, "load.pdf")) > 1000)
        os.remove(out)
        self.assertEqual(plot_load.main([self.runs, "-o", out, "--setting", "RR"]), [out])
        with open(out, "rb") as f:
            self.assertEqual(f.read(), first)  # deterministic

    def test_cli_bad_input(self):
        r = run_script("plot_load.py", [os.path.join(self.out, "nowhere")])
        self.assertEqual(r.returncode, 2)
        self.assertIn("no such file", r.stderr)


class TestPlotInjection(FigureTest):
    def test_figure(self):
        panels = plot_injection.injection_panels(self.groups, "ADVc", 0.4)
        fig = plot_injection.draw_injection(panels, "t")
        axes = visible_axes(fig)
        self.assertEqual(len(axes), 2)  # RR, Age
        for ax in axes:
            bars = bar_containers(ax)
            self.assertEqual(len(bars), 3)  # R_in, R_out, others
            for c in bars:
                self.assertEqual(len(c.patches), 2)  # MIN, IT-CRG
            self.assertEqual([t.get_text() for t in ax.get_xticklabels()], ["MIN", "IT-CRG"])

    def test_cli(self):
        out = os.path.join(self.out, "injection.png")
        plot_injection.main([self.runs, "-o", out])  # ADVc 0.4 by default
        self.assert_png(out)
        with self.assertRaisesRegex(dr.ResultError, "--load"):
            plot_injection.main([self.runs, "--pattern", "UN", "-o", out])


class TestPlotBreakdown(FigureTest):
    def test_figure(self):
        rows = plot_breakdown.breakdown_panels(
            plot_breakdown.choose_variant(dr.filter_groups(self.groups, settings=["RR"]),
                                          "MIN"))
        fig = plot_breakdown.draw_breakdown(rows, "t")
        axes = visible_axes(fig)
        self.assertEqual(len(axes), 2)  # UN, ADVc
        for ax in axes:
            bars = bar_containers(ax)
            self.assertEqual(len(bars), len(plot_breakdown.PARTS))
            for c in bars:
                self.assertEqual(len(c.patches), len(fixture.LOADS))
            top = [sum(c.patches[i].get_height() for c in bars) for i in range(2)]
            self.assertTrue(all(t > 50 for t in top))  # latencies, in cycles

    def test_cli(self):
        out = os.path.join(self.out, "breakdown.png")
        plot_breakdown.main([self.runs, "--variant", "IT-CRG", "-o", out])
        self.assert_png(out)
        r = run_script("plot_breakdown.py", [self.runs, "-o", out])
        self.assertEqual(r.returncode, 2)
        self.assertIn("--variant", r.stderr)


class TestPlotScaling(FigureTest):
    def test_figure(self):
        groups = dr.load_groups([fixture.scaling_dir()])
        fig = plot_scaling.draw_scaling(plot_scaling.scaling_series(groups, "ADVc", 0.4), "t")
        axes = visible_axes(fig)
        self.assertEqual(len(axes), 3)  # accepted, Max/Min, CoV
        for ax in axes:
            lines = line_containers(ax)
            self.assertEqual([c.get_label() for c in lines], ["MIN", "IT-CRG"])
            for c in lines:
                self.assertEqual(list(c.lines[0].get_xdata()), [2, 3])

    def test_cli(self):
        out = os.path.join(self.out, "scaling.png")
        written = plot_scaling.main([fixture.scaling_dir(), "-o", out, "--pdf"])
        self.assertEqual(written, [out, os.path.join(self.out, "scaling.pdf")])
        self.assert_png(out)


class TestTableFairness(FigureTest):
    def test_cli(self):
        out = os.path.join(self.out, "fairness.md")
        self.assertEqual(fixture.quiet(table_fairness.main,
                                       [self.runs, "-o", out, "--loads", "0.2", "0.4"]), 0)
        with open(out) as f:
            md = f.read()
        self.assertEqual(md.count("### "), 3)  # UN RR, ADVc RR, ADVc Age
        self.assertIn("| IT-CRG |", md)
        with open(os.path.join(self.out, "fairness.csv")) as f:
            rows = f.read().splitlines()
        self.assertEqual(len(rows), 1 + 6)


if __name__ == "__main__":
    unittest.main()


class JobsSweepCase(unittest.TestCase):
    """The job sweep of fixture.jobs_dir(): its directory, its records with jobs, a tmpdir."""

    @classmethod
    def setUpClass(cls):
        cls.jobs = fixture.jobs_dir()
        cls.records = [r for r in dr.load_records([cls.jobs]) if "jobs" in r.doc]
        cls.out = fixture.new_tmpdir()


class TestPlotJobs(JobsSweepCase):

    def tearDown(self):
        plt.close("all")

    def test_latency_boxes(self):
        fig = plot_jobs.draw_latency(self.records, "app", "t")
        axes = visible_axes(fig)
        self.assertEqual(len(axes), 1)  # one variant
        labels = [t.get_text() for t in axes[0].get_xticklabels()]
        # per placement: the job alone, then background loads 0 and 0.6 (seed 1)
        self.assertEqual(labels, ["alone", "bg load\n0", "bg load\n0.6"] * 2)
        self.assertEqual(axes[0].get_title(), "MIN: job app")
        # the box of a point is its document's quartiles
        first = min(self.records, key=lambda r: (r.point["jobs.app.placement"] != "contiguous",
                                                 r.point["jobs.bg.load"], r.seed))
        spread = plot_jobs.job_of(first, "app")["messages"]["latency"]
        box = plot_jobs.spread_box(spread, "x")
        self.assertEqual((box["q1"], box["med"], box["q3"]),
                         (spread["q1"], spread["median"], spread["q3"]))

    def test_slowdown_bars(self):
        fig = plot_jobs.draw_slowdown(self.records, "app", "t")
        axes = visible_axes(fig)
        self.assertEqual(len(axes), 2)  # runtime, message latency
        for ax in axes:
            bars = bar_containers(ax)
            self.assertEqual(len(bars), 2)  # contiguous, random_nodes
            for c in bars:
                self.assertEqual(len(c.patches), 2)  # bg load 0, 0.6
        # MIN keeps a contiguous job's groups to itself: exactly as fast as alone
        contiguous = bar_containers(axes[0])[0]
        self.assertEqual([p.get_height() for p in contiguous.patches], [1.0, 1.0])
        # no background (load 0) changes nothing for the random placement either
        self.assertEqual(bar_containers(axes[0])[1].patches[0].get_height(), 1.0)

    def test_slowdown_against_baseline_point(self):
        # The load-0 point is the job alone (the background sends nothing), so the slowdown
        # against it equals the one sim.isolate measured, bar for bar.
        fig = plot_jobs.draw_slowdown(self.records, "app", "t", ("jobs.bg.load", 0.0))
        axes = visible_axes(fig)
        self.assertEqual(len(axes), 2)  # closed loop: runtime and message latency
        for ax, key in zip(axes, ["runtime", "message_latency"]):
            bars = bar_containers(ax)
            self.assertEqual(len(bars), 2)  # contiguous, random_nodes
            for c, placement in zip(bars, ["contiguous", "random_nodes"]):
                self.assertEqual(len(c.patches), 1)  # bg load 0.6 only: 0 is the baseline
                alone = [plot_jobs.job_of(r, "app")["slowdown"][key] for r in self.records
                         if r.point["jobs.app.placement"] == placement
                         and r.point["jobs.bg.load"] == 0.6]
                self.assertAlmostEqual(c.patches[0].get_height(), sum(alone) / len(alone),
                                       places=9)
        self.assertIn("bg load", axes[0].get_ylabel())
        with self.assertRaises(dr.ResultError):
            plot_jobs.draw_slowdown(self.records, "app", "t", ("jobs.bg.load", 0.3))
        with self.assertRaises(dr.ResultError):
            plot_jobs.draw_slowdown(self.records, "app", "t", ("jobs.app.nodes", 1.0))
        self.assertEqual(plot_jobs.parse_baseline("jobs.bg.load=0"), ("jobs.bg.load", 0.0))
        self.assertEqual(plot_jobs.parse_baseline("a.b=x"), ("a.b", "x"))
        with self.assertRaises(dr.ResultError):
            plot_jobs.parse_baseline("jobs.bg.load")

    def test_variants_and_allocation_series(self):
        self.assertEqual(plot_jobs.select_variants(self.records, ["M*"]), self.records)
        self.assertEqual(plot_jobs.select_variants(self.records, None), self.records)
        with self.assertRaises(dr.ResultError):
            plot_jobs.select_variants(self.records, ["UN-*"])
        self.assertEqual(plot_jobs.series_label("jobs.app.allocation_file",
                                                "dfplus/random_small.txt"), "random_small")
        self.assertEqual(plot_jobs.series_label("jobs.app.placement", "contiguous"),
                         "app placement contiguous")

    def test_cli(self):
        out = os.path.join(self.out, "jobs.png")
        r = run_script("plot_jobs.py", [self.jobs, "--job", "app", "--kind", "slowdown", "-o",
                                        out])
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(out, "rb") as f:
            self.assertEqual(f.read(8), PNG_MAGIC)
        r = run_script("plot_jobs.py", [self.jobs, "--job", "nope", "-o", out])
        self.assertEqual(r.returncode, 2)
        self.assertIn("no job 'nope' (jobs: app, bg)", r.stderr)


class TestTableJobs(JobsSweepCase):
    def rows(self, text):
        return [[c.strip() for c in line.strip("|").split("|")] for line in text.splitlines()]

    def test_table(self):
        rows = self.rows(table_jobs.table(self.records, "app", ("jobs.bg.load", 0.0)))
        head = rows[0]
        self.assertEqual(head[:2], ["variant", "app placement"])
        self.assertIn("x at bg load 0.6", head)
        self.assertEqual(len(rows), 4)  # head, rule, contiguous, random_nodes
        by_placement = {row[1]: dict(zip(head, row)) for row in rows[2:]}
        contiguous = by_placement["app placement contiguous"]
        # MIN keeps a contiguous job's groups to itself: the background changes nothing, in
        # message latency nor (closed loop) runtime
        self.assertEqual(contiguous["x at bg load 0.6"], "1.00 / 1.00")
        # the baseline's mean latency is the mean over the seeds of the documents' means
        base = [plot_jobs.job_of(r, "app")["messages"]["latency"]["mean"] for r in self.records
                if r.point["jobs.app.placement"] == "random_nodes"
                and r.point["jobs.bg.load"] == 0]
        self.assertEqual(len(base), 2)
        self.assertEqual(by_placement["app placement random_nodes"]["mean latency at bg load 0"],
                         "{:,}".format(int(round(sum(base) / 2))))

    def test_missing_points(self):
        # A sweep in progress: without its baseline point a row shows "-", not an error.
        kept = [r for r in self.records if not (r.point["jobs.app.placement"] == "contiguous"
                                                and r.point["jobs.bg.load"] == 0)]
        rows = self.rows(table_jobs.table(kept, "app", ("jobs.bg.load", 0.0)))
        contiguous = dict(zip(rows[0], [r for r in rows[2:] if "contiguous" in r[1]][0]))
        self.assertEqual(contiguous["mean latency at bg load 0"], "-")
        self.assertEqual(contiguous["x at bg load 0.6"], "-")
        with self.assertRaises(dr.ResultError):
            table_jobs.table(self.records, "app", ("jobs.app.nodes", 1.0))

    def test_served_table(self):
        # What the background gets, per placement of the app, at its only non-zero load.
        rows = self.rows(table_jobs.served_table(self.records, "bg", ("jobs.bg.load", 0.0)))
        head = rows[0]
        self.assertEqual(head, ["variant", "app placement",
                                "accepted / offered at bg load 0.6",
                                "mean / p99 latency at bg load 0.6"])
        self.assertEqual(len(rows), 4)  # head, rule, contiguous, random_nodes
        for row in rows[2:]:
            placement = row[1].split()[-1]
            docs = [plot_jobs.job_of(r, "bg") for r in self.records
                    if r.point["jobs.app.placement"] == placement
                    and r.point["jobs.bg.load"] == 0.6]
            self.assertEqual(len(docs), 2)  # the seeds, averaged
            accepted = sum(d["load"]["accepted"] for d in docs) / 2
            offered = sum(d["load"]["offered"] for d in docs) / 2
            latency = sum(d["messages"]["latency"]["mean"] for d in docs) / 2
            self.assertEqual(row[2], "%.3f / %.3f" % (accepted, offered))
            self.assertEqual(row[3].split(" / ")[0], "{:,}".format(int(round(latency))))
            # a background of 0.6 phits/node/cycle, offered as such
            self.assertAlmostEqual(offered, 0.6, delta=0.03)

    def test_cli(self):
        out = os.path.join(self.out, "jobs.md")
        r = run_script("table_jobs.py", [self.jobs, "--job", "app", "--baseline",
                                         "jobs.bg.load=0", "-o", out])
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(out) as f:
            self.assertEqual(f.read(), table_jobs.table(self.records, "app",
                                                        ("jobs.bg.load", 0.0)))
        r = run_script("table_jobs.py", [self.jobs, "--job", "bg", "--baseline",
                                         "jobs.bg.load=0", "--served"])
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout, table_jobs.served_table(self.records, "bg",
                                                           ("jobs.bg.load", 0.0)))
        r = run_script("table_jobs.py", [self.jobs, "--job", "app", "--baseline", "bg"])
        self.assertEqual(r.returncode, 2)
        self.assertIn("expected AXIS=VALUE", r.stderr)
