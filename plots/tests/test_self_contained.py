"""The repository stands on its own: no file of it (tracked, or new and not ignored) and nothing
dfsim prints names a document or folder outside the repository. A clone holds the model
reference (src/MODEL.md and its chapters), the studies' write-ups and the validation data; a
page or a message that sends its reader elsewhere is a broken promise.

The names refused are built from parts below, so that this file does not match itself."""

import os
import re
import subprocess
import unittest

import fixture

# What points outside: the folder beside the clone and the documents that lived there.
_OUTSIDE = [
    r"\.\./" + "shared",
    r"\bshared/" + r"(?:SPEC|STUDIES|DESIGN|anchors|traces|tools)",
    "SPEC" + r"\.md",
    "SPEC" + r" section",
    "STUDIES" + r"\.md",
    "DESIGN" + r"\.md",
]
OUTSIDE = re.compile("|".join("(?:%s)" % p for p in _OUTSIDE))


def repository_files():
    """Tracked files plus new ones git does not ignore (what the next commit may hold)."""
    out = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                         cwd=fixture.ROOT, check=True, capture_output=True).stdout
    return sorted({p.decode() for p in out.split(b"\0") if p})


def text_of(path):
    """The file's text, or None for a binary file (a NUL byte) or one that is gone."""
    try:
        with open(os.path.join(fixture.ROOT, path), "rb") as f:
            data = f.read()
    except (FileNotFoundError, IsADirectoryError):
        return None
    if b"\0" in data:
        return None
    return data.decode("utf-8", errors="replace")


def offending_lines(name, text):
    return ["%s:%d: %s" % (name, n, line.strip()[:160])
            for n, line in enumerate(text.split("\n"), 1) if OUTSIDE.search(line)]


def run(args, expect_status):
    """stdout + stderr of ./dfsim ARGS, run from the repository root; checks the exit status."""
    if not os.access(fixture.DFSIM, os.X_OK):
        raise unittest.SkipTest("%s not found: build it first (make dfsim)" % fixture.DFSIM)
    p = subprocess.run([fixture.DFSIM] + args, cwd=fixture.ROOT, capture_output=True, text=True)
    if p.returncode != expect_status:
        raise AssertionError("dfsim %s: exit status %d (expected %d)\n%s%s"
                             % (" ".join(args), p.returncode, expect_status, p.stdout, p.stderr))
    return p.stdout + p.stderr


class SelfContainedTest(unittest.TestCase):
    def test_the_pattern_catches_each_name(self):
        # the checker itself, on names assembled here
        for bad in ["see ../" + "shared/" + "SPEC" + ".md", "(" + "SPEC" + " section 9)",
                    "STUDIES" + ".md section 2", "tools/" + "DESIGN" + ".md",
                    "/work/" + "shared/" + "anchors/x.csv"]:
            self.assertTrue(OUTSIDE.search(bad), bad)
        for good in ["src/MODEL.md", "buffers shared by the VCs", "results/README.md",
                     "src/METRICS.md#theoretical-bounds", "the spec of the port"]:
            self.assertFalse(OUTSIDE.search(good), good)

    def test_no_file_names_a_path_outside(self):
        problems = []
        files = repository_files()
        self.assertGreater(len(files), 100)
        for path in files:
            text = text_of(path)
            if text is not None:
                problems += offending_lines(path, text)
        self.assertEqual(problems, [], "%d lines name a document outside the repository:\n%s"
                         % (len(problems), "\n".join(problems)))

    def test_no_output_names_a_path_outside(self):
        outputs = {
            "--help": run(["--help"], 0),
            "--version": run(["--version"], 0),
            "info conf/default.cfg": run(["info", "conf/default.cfg"], 0),
            "settings": run(["settings"], 0),
            "settings --markdown": run(["settings", "--markdown"], 0),
            "schema --markdown": run(["schema", "--markdown"], 0),
            "a bad value": run(["info", "conf/default.cfg", "--set", "traffic.pattern=ADVx"], 2),
            "a bad setting": run(["run", "conf/default.cfg", "--set", "traffic.lod=1"], 2),
        }
        # a routing and pattern for which the model states no bound: info says so, and where
        # the bounds are defined
        nobound = run(["info", "conf/default.cfg", "--set", "routing.mechanism=ugal_g"], 0)
        self.assertIn("none stated by the model (src/METRICS.md#theoretical-bounds)", nobound)
        outputs["info without a bound"] = nobound
        problems = []
        for what, text in outputs.items():
            problems += offending_lines("dfsim " + what, text)
        self.assertEqual(problems, [], "\n".join(problems))


if __name__ == "__main__":
    unittest.main()
