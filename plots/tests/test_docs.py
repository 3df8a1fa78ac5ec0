"""The documentation a newcomer walks through: every link of every tracked Markdown page
resolves (file and heading), and the README's example commands and the tutorial's commands run
as written and print what the pages show (tools/check_docs.py)."""

import os
import sys
import unittest

import fixture

sys.path.insert(0, os.path.join(fixture.ROOT, "tools"))
import check_docs  # noqa: E402


class DocsTest(unittest.TestCase):
    def test_links_resolve(self):
        problems = check_docs.check_links()
        self.assertEqual(problems, [], "\n".join(problems))

    def test_a_broken_link_is_caught(self):
        # the checker itself: a page with a missing file and a missing heading
        path = os.path.join(fixture.ROOT, "build", "check_docs_probe.md")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write("# Probe\n\n[a](../README.md#no-such-heading) [b](missing.md) [c](#probe)\n")
        found = [t for _, t in check_docs.links("build/check_docs_probe.md")]
        self.assertEqual(found, ["../README.md#no-such-heading", "missing.md", "#probe"])
        self.assertIn("probe", check_docs.anchors("build/check_docs_probe.md"))
        self.assertNotIn("no-such-heading", check_docs.anchors("README.md"))
        os.remove(path)

    def test_readme_commands_run(self):
        if not os.access(fixture.DFSIM, os.X_OK):
            self.fail("%s not found: build it first (make dfsim)" % fixture.DFSIM)
        self.assertGreaterEqual(len(check_docs.readme_commands()), 3)
        problems = check_docs.check_commands()
        self.assertEqual(problems, [], "\n".join(problems))

    def test_tutorial_commands_run(self):
        if not os.access(fixture.DFSIM, os.X_OK):
            self.fail("%s not found: build it first (make dfsim)" % fixture.DFSIM)
        commands = [c for c, _ in check_docs.tutorial_commands()]
        # the tutorial's path: a point, info, a fairness point, the sweep, the figure, the table
        self.assertGreaterEqual(len(commands), 6)
        self.assertTrue(any(c.startswith("./dfsim sweep ") for c in commands))
        self.assertTrue(any("table_fairness.py" in c for c in commands))
        problems = check_docs.check_tutorial()
        self.assertEqual(problems, [], "\n".join(problems))

    def test_a_wrong_tutorial_line_is_caught(self):
        # the checker compares the first line printed, numbers aside
        problems = check_docs.run_commands(
            "probe", [("./dfsim info conf/default.cfg", "network    9 groups")], fixture.ROOT)
        self.assertEqual(len(problems), 1)
        self.assertIn("where the page shows", problems[0])


if __name__ == "__main__":
    unittest.main()
