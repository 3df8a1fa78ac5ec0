"""The scripts' view of the result document is dfsim's own table: plots/result_schema.json is
what `./dfsim schema --json` prints, and the metrics, breakdown parts and field paths read from
it match the documents ./dfsim writes."""

import glob
import os
import subprocess
import unittest

import fixture

import dfsim_results as dr
import plot_breakdown


def dfsim_schema_json():
    """stdout of `./dfsim schema --json`."""
    if not os.access(fixture.DFSIM, os.X_OK):
        raise RuntimeError("%s not found: build it first (make dfsim)" % fixture.DFSIM)
    return subprocess.run([fixture.DFSIM, "schema", "--json"], check=True,
                          stdout=subprocess.PIPE).stdout.decode("utf-8")


def field_paths(schema, section=None, prefix="", with_absent=True):
    """[(dotted path, field)] of every field under a section, depth first, in document order
    (with_absent=False: without the fields a document may lack, such as "jobs", and what is
    under them)."""
    sections = {s["name"]: s for s in schema["sections"]}
    section = section or schema["sections"][0]
    out = []
    for field in section["fields"]:
        if not with_absent and "absent" in field:
            continue
        path = prefix + field["key"]
        out.append((path, field))
        if "section" in field:
            inner = path + ("[]." if field["type"] == "array of objects" else ".")
            out.extend(field_paths(schema, sections[field["section"]], inner, with_absent))
    return out


def document_paths(doc, prefix=""):
    """Dotted paths of every member of a document, depth first; "config" is not entered (the
    settings schema describes it)."""
    out = []
    for key, value in doc.items():
        path = prefix + key
        out.append(path)
        if isinstance(value, dict) and path != "config":
            out.extend(document_paths(value, path + "."))
    return out


def value_at(doc, path):
    for key in path.split("."):
        doc = doc[key]
    return doc


class TestSchemaFile(unittest.TestCase):
    def test_file_is_what_dfsim_prints(self):
        with open(dr.RESULT_SCHEMA_FILE, encoding="utf-8") as f:
            committed = f.read()
        self.assertEqual(committed, dfsim_schema_json(),
                         "plots/result_schema.json is stale: run "
                         "`./dfsim schema --json > plots/result_schema.json`")

    def test_reader_knows_the_tables_schema(self):
        self.assertEqual(dr.SCHEMA, dr.RESULT_SCHEMA["schema"],
                         "the result schema changed: update dfsim_results.py, then SCHEMA")

    def test_metrics_are_the_figures(self):
        figures = dr.RESULT_SCHEMA["figures"]
        self.assertEqual(sorted(dr.METRICS), sorted(f["name"] for f in figures))
        # what the scripts ask for by name
        for name in ("offered", "accepted", "latency_mean", "min_injected_load",
                     "min_injected_pct_of_offered", "max_min", "cov"):
            self.assertIn(name, dr.METRICS)

    def test_breakdown_parts(self):
        section = dr.section_at(dr.RESULT_SCHEMA, "latency.breakdown")
        self.assertEqual(dr.BREAKDOWN_PARTS, [f["key"] for f in section["fields"]])
        self.assertEqual(len(dr.BREAKDOWN_PARTS), 5)
        # plot_breakdown's labels and colours name every part, in the same order
        self.assertEqual([key for key, _, _ in plot_breakdown.PARTS], dr.BREAKDOWN_PARTS)

    def test_section_at(self):
        self.assertEqual(dr.section_at(dr.RESULT_SCHEMA, "")["name"], "document")
        self.assertEqual(dr.section_at(dr.RESULT_SCHEMA, "fairness")["name"], "fairness")
        for bad in ("latency.mean", "nope", "latency.breakdown.x"):
            with self.assertRaises(KeyError):
                dr.section_at(dr.RESULT_SCHEMA, bad)


class TestSchemaAgainstDocuments(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        runs = fixture.data_dir()
        cls.docs = [fixture.load_doc(p) for p in sorted(glob.glob(os.path.join(runs, "*.json")))]
        # the fixture's runs have no jobs: the parts about jobs are absent
        cls.paths = field_paths(dr.RESULT_SCHEMA, with_absent=False)

    def test_every_field_of_the_table_and_nothing_else(self):
        expected = [path for path, _ in self.paths]
        for doc in self.docs:
            self.assertNotIn("jobs", doc)
            self.assertEqual(document_paths(doc), expected)

    def test_types(self):
        checks = {
            "count": lambda v: isinstance(v, int) and v >= 0,
            "number": lambda v: isinstance(v, (int, float)),
            "number or null": lambda v: v is None or isinstance(v, (int, float)),
            "string": lambda v: isinstance(v, str),
            "boolean": lambda v: isinstance(v, bool),
            "array of counts": lambda v: isinstance(v, list) and all(
                isinstance(x, int) for x in v),
            "array of numbers": lambda v: isinstance(v, list) and all(
                isinstance(x, (int, float)) for x in v),
            "object": lambda v: isinstance(v, dict),
            "object of settings": lambda v: isinstance(v, dict),
        }
        for doc in self.docs:
            for path, field in self.paths:
                self.assertTrue(checks[field["type"]](value_at(doc, path)),
                                "%s is not a %s" % (path, field["type"]))

    def test_metrics_read_their_paths(self):
        for f in dr.RESULT_SCHEMA["figures"]:
            for doc in self.docs:
                self.assertEqual(dr.METRICS[f["name"]](doc), value_at(doc, f["path"]))

    def test_breakdown_parts_are_the_documents(self):
        for doc in self.docs:
            self.assertEqual(list(doc["latency"]["breakdown"]), dr.BREAKDOWN_PARTS)


class TestSchemaAgainstJobDocuments(unittest.TestCase):
    """Documents of runs with jobs: "run" and "jobs" appear, and every member of a job's object
    is a field of the job section (those marked absent only may be missing)."""

    @classmethod
    def setUpClass(cls):
        runs = fixture.jobs_dir()
        cls.docs = [fixture.load_doc(p) for p in sorted(glob.glob(os.path.join(runs, "*", "*.json")))]

    def test_job_objects(self):
        self.assertGreater(len(self.docs), 0)
        job_section = dr.section_at(dr.RESULT_SCHEMA, "")["fields"]
        jobs_field = next(f for f in job_section if f["key"] == "jobs")
        self.assertEqual(jobs_field["type"], "array of objects")
        sections = {s["name"]: s for s in dr.RESULT_SCHEMA["sections"]}
        fields = sections[jobs_field["section"]]["fields"]
        keys = [f["key"] for f in fields]
        required = [f["key"] for f in fields if "absent" not in f]
        for doc in self.docs:
            self.assertIn("run", doc)
            for job in doc["jobs"]:
                self.assertEqual([k for k in keys if k in job], list(job))  # order, nothing else
                for k in required:
                    self.assertIn(k, job)
                closed = job["kind"] == "closed loop"
                self.assertEqual("runtime_cycles" in job, closed)
                self.assertEqual("slowdown" in job, closed)  # the sweep sets sim.isolate


if __name__ == "__main__":
    unittest.main()
