"""Data extraction of the plotting scripts on result documents made by ./dfsim."""

import glob
import json
import math
import os
import unittest

import fixture

import dfsim_results as dr
import plot_breakdown
import plot_injection
import plot_load
import plot_scaling
import table_fairness


def docs_in(directory):
    return [fixture.load_doc(p) for p in sorted(glob.glob(os.path.join(directory, "*.json")))]


class TestRecords(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.runs = fixture.data_dir()
        cls.records = dr.load_records([cls.runs])

    def test_every_document_read(self):
        self.assertEqual(len(self.records), len(glob.glob(os.path.join(self.runs, "*.json"))))

    def test_names_derived_from_config(self):
        names = {(r.variant, r.setting, r.pattern) for r in self.records}
        self.assertIn(("MIN", "RR", "UN"), names)
        self.assertIn(("IT-CRG", "RR", "ADVc"), names)
        self.assertIn(("IT-CRG", "Age", "ADVc"), names)

    def test_labels_of_every_mechanism(self):
        base = self.records[0].config
        cases = [({"mechanism": "min"}, "MIN"),
                 ({"mechanism": "valiant", "valiant_target": "group"}, "VAL"),
                 ({"mechanism": "valiant", "valiant_target": "router"}, "VAL-any"),
                 ({"mechanism": "oblivious", "global_policy": "crg"}, "Obl-CRG"),
                 ({"mechanism": "piggyback", "global_policy": "rrg"}, "PB-RRG"),
                 ({"mechanism": "in_transit", "global_policy": "mm"}, "IT-MM")]
        for routing, label in cases:
            config = json.loads(json.dumps(base))
            config["routing"].update(routing)
            self.assertEqual(dr.routing_label(config), label)
        config = json.loads(json.dumps(base))
        config["traffic"].update({"pattern": "adversarial", "offset": 3})
        self.assertEqual(dr.pattern_label(config), "ADV+3")
        config["router"].update({"arbiter": "round_robin", "transit_priority": True})
        self.assertEqual(dr.setting_label(config), "RR+TP")

    def test_groups_join_the_seeds(self):
        groups = dr.group_records(self.records)
        # 2 routings x (2 patterns x 2 loads + age at ADVc 0.4)
        self.assertEqual(len(groups), 2 * (2 * 2 + 1))
        for g in groups:
            self.assertEqual(g.seeds, len(fixture.SEEDS))
            self.assertEqual(sorted(r.seed for r in g.records), fixture.SEEDS)

    def test_group_mean_and_ci(self):
        g = dr.group_records(self.records)[0]
        values = [r.doc["load"]["accepted"] for r in g.records]
        st = g.stat("accepted")
        self.assertAlmostEqual(st.mean, sum(values) / 2)
        sd = abs(values[0] - values[1]) / math.sqrt(2)
        self.assertAlmostEqual(st.ci95, 12.706 * sd / math.sqrt(2))

    def test_group_order_is_canonical(self):
        groups = dr.group_records(self.records)
        self.assertEqual(groups[0].variant, "MIN")
        self.assertEqual(groups[-1].variant, "IT-CRG")

    def test_stale_documents_are_not_read(self):
        # dfsim sweep moves the documents of points whose config changed to DIR/.stale/:
        # reading them would count such points twice.
        tmp = fixture.new_tmpdir()
        src = sorted(glob.glob(os.path.join(self.runs, "*.json")))[0]
        os.makedirs(os.path.join(tmp, "v", ".stale", "v"))
        for dest in (os.path.join(tmp, "v", "a.json"),
                     os.path.join(tmp, "v", ".stale", "v", "a.json")):
            with open(src, encoding="utf-8") as f, open(dest, "w", encoding="utf-8") as g:
                g.write(f.read())
        self.assertEqual(dr.find_result_files([tmp]), [os.path.join(tmp, "v", "a.json")])
        self.assertEqual(len(dr.load_records([tmp])), 1)

    def test_not_a_result(self):
        tmp = fixture.new_tmpdir()
        with open(os.path.join(tmp, "other.json"), "w") as f:
            f.write('{"x": 1}')
        with self.assertRaises(dr.ResultError):
            dr.load_records([tmp])
        with self.assertRaises(dr.ResultError):
            dr.load_records([os.path.join(tmp, "missing")])


class TestStatistics(unittest.TestCase):
    def test_mean_ci(self):
        st = dr.mean_ci([1.0, 2.0, 3.0])
        self.assertAlmostEqual(st.mean, 2.0)
        self.assertAlmostEqual(st.ci95, 4.303 / math.sqrt(3))
        self.assertEqual(dr.mean_ci([5.0]).ci95, 0.0)
        st = dr.mean_ci([2.0, None])  # an infinite Max/Min in one seed: as dfsim merge
        self.assertEqual((st.mean, st.starved, st.n), (2.0, 1, 2))
        self.assertIsNone(dr.mean_ci([None, None]).mean)

    def test_t_quantiles(self):
        self.assertAlmostEqual(dr.t975(1), 12.706)
        self.assertAlmostEqual(dr.t975(30), 2.042)
        self.assertAlmostEqual(dr.t975(100), 1.96)


class TestExtraction(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.runs = fixture.data_dir()
        cls.groups = dr.load_groups([cls.runs])

    def test_load_panels(self):
        rr = dr.filter_groups(self.groups, settings=["RR"])
        panels = plot_load.load_panels(rr)
        self.assertEqual([p for p, _ in panels], ["UN", "ADVc"])
        for _, series in panels:
            self.assertEqual([s.label for s in series], ["MIN", "IT-CRG"])
            for s in series:
                self.assertEqual(s.loads, fixture.LOADS)
                self.assertEqual(s.seeds, 2)
                for acc, ci in zip(s.accepted, s.accepted_ci):
                    self.assertGreater(acc, 0)
                    self.assertGreaterEqual(ci, 0)

    def test_load_panels_label_mixed_settings(self):
        adv = dr.filter_groups(self.groups, pattern="ADVc")
        labels = [s.label for s in plot_load.load_panels(adv)[0][1]]
        self.assertEqual(labels, ["MIN (RR)", "MIN (Age)", "IT-CRG (RR)", "IT-CRG (Age)"])

    def test_group0_split(self):
        self.assertEqual(plot_injection.group0_split([1.0, 2.0, 4.0, 8.0]), (1.0, 8.0, 3.0))

    def test_injection_panels(self):
        panels = plot_injection.injection_panels(self.groups, "ADVc", 0.4)
        self.assertEqual([s for s, _ in panels], ["RR", "Age"])
        for _, bars in panels:
            self.assertEqual([b.label for b in bars], ["MIN", "IT-CRG"])
        bars = panels[0][1][0]
        group = dr.filter_groups(self.groups, pattern="ADVc", load=0.4, settings=["RR"],
                                 variants=["MIN"])[0]
        vectors = [r.doc["fairness"]["group0_injected_load"] for r in group.records]
        self.assertEqual(len(vectors[0]), 4)  # a = 4 routers
        self.assertAlmostEqual(bars.stats["R_in"].mean, (vectors[0][0] + vectors[1][0]) / 2)
        self.assertAlmostEqual(bars.stats["R_out"].mean, (vectors[0][3] + vectors[1][3]) / 2)
        others = [(v[1] + v[2]) / 2 for v in vectors]
        self.assertAlmostEqual(bars.stats["others"].mean, sum(others) / 2)

    def test_choose_traffic_point(self):
        self.assertEqual(dr.choose_traffic_point(self.groups), ("ADVc", 0.4))
        self.assertEqual(dr.choose_traffic_point(self.groups, "uniform", 0.2), ("UN", 0.2))
        only_un = dr.filter_groups(self.groups, pattern="UN")
        with self.assertRaises(dr.ResultError):
            dr.choose_traffic_point(only_un)

    def test_breakdown_sums_to_the_mean(self):
        groups = plot_breakdown.choose_variant(self.groups, "IT-CRG")
        rows = plot_breakdown.breakdown_panels(groups)
        self.assertEqual(len(rows), 2)  # RR, Age
        self.assertEqual([b.pattern for b in rows[0]], ["UN", "ADVc"])
        self.assertIsNone(rows[1][0])   # no UN run with the age arbiter
        for row in rows:
            for b in row:
                if b is None:
                    continue
                for i, lat in enumerate(b.latency):
                    total = sum(b.parts[k][i] for k, _, _ in plot_breakdown.PARTS)
                    self.assertAlmostEqual(total, lat, delta=1e-6 * lat)
        with self.assertRaises(dr.ResultError):
            plot_breakdown.choose_variant(self.groups, None)

    def test_fairness_table(self):
        rr = dr.filter_groups(self.groups, settings=["RR"])
        tables = table_fairness.fairness_tables(rr, [0.2, 0.4])
        self.assertEqual([(t.pattern, t.setting) for t in tables], [("UN", "RR"), ("ADVc", "RR")])
        row = tables[1].rows[0]
        self.assertEqual(row.variant, "MIN")
        cell = row.cells[0.4]
        group = dr.filter_groups(rr, pattern="ADVc", load=0.4, variants=["MIN"])[0]
        expect = sum(r.doc["fairness"]["cov"] for r in group.records) / 2
        self.assertAlmostEqual(cell.cov.mean, expect)
        md = table_fairness.markdown(tables)
        self.assertIn("| MIN |", md)
        self.assertIn("### ADVc, RR, h=2 (72 nodes)", md)
        lines = table_fairness.csv_text(tables).splitlines()
        self.assertEqual(len(lines), 1 + 4)
        self.assertEqual(len(lines[0].split(",")), len(lines[1].split(",")))

    def test_saturation_estimate(self):
        doc = docs_in(self.runs)[0]
        tmp = fixture.new_tmpdir()
        for i, (load, acc) in enumerate([(0.1, 0.1), (0.2, 0.195), (0.3, 0.25), (0.4, 0.26)]):
            fixture.write_doc(os.path.join(tmp, "%d.json" % i),
                              fixture.variant_doc(doc, load=load, offered=load, accepted=acc))
        groups = dr.load_groups([tmp])
        self.assertEqual(dr.estimate_saturation(groups), (0.2, True))
        self.assertEqual(dr.estimate_saturation(groups[:2]), (0.2, False))
        row = table_fairness.fairness_tables(groups, [0.1, 0.4])[0].rows[0]
        self.assertEqual((row.saturation, row.saturation_source), (0.2, "estimated"))
        self.assertIsNotNone(row.cells[0.4])
        self.assertIsNotNone(row.cells[0.1])

    def test_series_tell_apart_what_would_collide(self):
        tmp = fixture.new_tmpdir()
        for path in sorted(glob.glob(os.path.join(self.runs, "min_uniform_*.json"))):
            doc = fixture.load_doc(path)
            doc["sweep"] = {"name": "other", "variant": "MIN", "hash": "0" * 16,
                            "point": {"traffic.load": doc["config"]["traffic"]["load"],
                                      "sim.seed": doc["config"]["sim"]["seed"]}}
            fixture.write_doc(os.path.join(tmp, "MIN", os.path.basename(path)), doc)
        groups = dr.filter_groups(dr.load_groups([self.runs, tmp]), pattern="UN")
        labels = [label for label, _ in dr.split_series(groups)]
        self.assertEqual(labels, ["MIN (run)", "MIN (other)", "IT-CRG (run)"])
        # Same names, another setting than seed/variant/arbitration/size: no way to tell apart.
        bad = fixture.new_tmpdir()
        doc = fixture.load_doc(sorted(glob.glob(os.path.join(self.runs, "min_uniform_*")))[0])
        doc["config"]["buffers"]["local"] = 64
        fixture.write_doc(os.path.join(bad, "x.json"), doc)
        groups = dr.filter_groups(dr.load_groups([self.runs, bad]), pattern="UN")
        with self.assertRaises(dr.ResultError):
            dr.split_series(groups)

    def test_scaling_series(self):
        groups = dr.load_groups([fixture.scaling_dir()])
        series = plot_scaling.scaling_series(groups, "ADVc", 0.4)
        self.assertEqual([s.label for s in series], ["MIN", "IT-CRG"])
        for s in series:
            self.assertEqual(s.h, [2, 3])
            self.assertEqual(s.nodes, [72, 342])
            self.assertEqual(len(s.stats["cov"]), 2)


class TestSweepIndex(unittest.TestCase):
    """Documents carrying a "sweep" object and a merged sweep.json beside them."""

    @classmethod
    def setUpClass(cls):
        runs = fixture.data_dir()
        cls.dir = fixture.new_tmpdir()
        for path in sorted(glob.glob(os.path.join(runs, "min_adversarial_consecutive_*.json"))):
            doc = fixture.load_doc(path)
            point = {"traffic.load": doc["config"]["traffic"]["load"],
                     "sim.seed": doc["config"]["sim"]["seed"]}
            doc["sweep"] = {"name": "tiny", "variant": "Minimal", "point": point,
                            "hash": "0" * 16}
            fixture.write_doc(os.path.join(cls.dir, "Minimal", os.path.basename(path)), doc)
        index = {"sweep": "tiny", "points": [],
                 "groups": [{"variant": "Minimal", "point": {"traffic.load": 0.4}, "seeds": 2,
                             "accepted": {"mean": 0.123, "ci95": 0.01},
                             "max_min": {"mean": None, "ci95": None, "starved": 2}}],
                 "saturation_groups": [{"variant": "Minimal",
                                        "point": {"traffic.pattern": "adversarial_consecutive"},
                                        "seeds": 1, "load": {"mean": 0.25, "ci95": 0}}]}
        fixture.write_doc(os.path.join(cls.dir, "sweep.json"), index)

    def test_variant_from_sweep_object(self):
        groups = dr.load_groups([self.dir])
        self.assertEqual({g.variant for g in groups}, {"Minimal"})
        self.assertEqual({g.routing for g in groups}, {"MIN"})
        self.assertEqual(len(groups), 2)

    def test_index_overrides_statistics(self):
        groups = dr.load_groups([self.dir])
        g4 = [g for g in groups if g.load == 0.4][0]
        self.assertEqual(g4.stat("accepted").mean, 0.123)
        self.assertEqual(g4.stat("accepted").ci95, 0.01)
        self.assertIsNone(g4.stat("max_min").mean)
        self.assertEqual(g4.stat("max_min").starved, 2)  # counted under the nulls_key
        self.assertEqual(g4.stat("accepted").starved, 0)
        g2 = [g for g in groups if g.load == 0.2][0]
        self.assertNotEqual(g2.stat("accepted").mean, 0.123)

    def test_index_saturation(self):
        indexes = dr.find_sweep_indexes([self.dir])
        sat = dr.sweep_saturation(indexes)
        self.assertEqual(sat, {("Minimal", "ADVc"): 0.25})
        tables = table_fairness.fairness_tables(dr.load_groups([self.dir]), [0.2, 0.4], sat)
        row = tables[0].rows[0]
        self.assertEqual((row.saturation, row.saturation_source), (0.25, "sweep"))
        self.assertIn("inf (starved)", table_fairness.markdown(tables))


if __name__ == "__main__":
    unittest.main()
