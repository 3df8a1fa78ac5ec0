"""The quick subset of the validation suite (tools/validate.py, results/validation/README.md):
each peer module's quick points, run with the real ./dfsim, must agree with the peer's
measured figures within the module's TOLERANCES. Two counter-checks show the tolerances bite: a
router latency of 5 instead of FOGSim's 3, and global links of twice the bandwidth (so MIN's
ADV+1 saturation point doubles), must each fail a FOGSim check."""

import importlib
import json
import os
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fixture  # noqa: E402

sys.path.insert(0, os.path.join(fixture.ROOT, "tools"))

import validation  # noqa: E402

PEERS = ("fogsim", "booksim2", "codes")


def peer_module(name):
    if not os.path.exists(os.path.join(fixture.ROOT, "tools", "validation", name + ".py")):
        return None
    return importlib.import_module("validation." + name)


def run_point(point, tmp, extra=()):
    out = os.path.join(tmp, point["id"] + "".join("-" + e.replace("=", "_") for e in extra)
                       + ".json")
    if os.path.exists(out):
        with open(out) as f:
            return json.load(f)
    cmd = [fixture.DFSIM, "run", os.path.join(fixture.ROOT, point["config"]), "--quiet",
           "-o", out]
    for k, v in point["settings"].items():
        v = ("true" if v else "false") if isinstance(v, bool) else v
        cmd += ["--set", "%s=%s" % (k, v)]
    for e in extra:
        cmd += ["--set", e]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, cwd=fixture.ROOT)
    with open(out) as f:
        return json.load(f)


def checks(module, point, doc):
    if hasattr(module, "compare"):
        return module.compare(point, doc)
    return validation.generic_compare(module, point, doc)


def failures(module, point, doc):
    bad = []
    for c in checks(module, point, doc):
        if c["tolerance_pct"] is None or c["diff_pct"] is None:
            continue
        if abs(c["diff_pct"]) > c["tolerance_pct"]:
            bad.append("%s %s: %s %.4g, dfsim %.4g (%+.1f %%, tolerance %.1f %%)" % (
                point["id"], c["metric"], module.PEER, c["peer"], c["dfsim"], c["diff_pct"],
                c["tolerance_pct"]))
    return bad


class QuickValidation(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not os.access(fixture.DFSIM, os.X_OK):
            raise unittest.SkipTest("%s not built" % fixture.DFSIM)
        cls.tmp = tempfile.mkdtemp(prefix="dfsim-validation-")

    @classmethod
    def tearDownClass(cls):
        import shutil
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_modules_define_the_interface(self):
        found = 0
        for name in PEERS:
            m = peer_module(name)
            if m is None:
                continue
            found += 1
            self.assertEqual(m.PEER, name)
            self.assertTrue(m.TOLERANCES, name)
            for metric, tol in m.TOLERANCES.items():
                pct = tol["pct"] if isinstance(tol, dict) else tol
                self.assertGreater(pct, 0, (name, metric))
            quick = m.points(quick=True)
            self.assertTrue(quick, "%s: no quick points" % name)
            for p in quick:
                self.assertTrue(os.path.exists(os.path.join(fixture.ROOT, p["config"])), p)
        self.assertGreaterEqual(found, 2)

    def _peer(self, name):
        m = peer_module(name)
        if m is None:
            self.skipTest("no tools/validation/%s.py" % name)
        asserted = 0
        bad = []
        for p in m.points(quick=True):
            doc = run_point(p, self.tmp)
            bad += failures(m, p, doc)
            asserted += sum(c["tolerance_pct"] is not None for c in checks(m, p, doc))
        self.assertGreater(asserted, 0, "%s: no check has a tolerance" % name)
        self.assertEqual(bad, [], "\n" + "\n".join(bad))

    def test_fogsim(self):
        self._peer("fogsim")

    def test_booksim2(self):
        self._peer("booksim2")

    def test_codes(self):
        self._peer("codes")

    def _fogsim_point(self, h, traffic, routing, offered):
        m = peer_module("fogsim")
        for p in m.points(quick=True):
            q = p["peer"]
            if (q["h"], q["traffic"], q["routing"], q["arb"], q["offered"]) == (
                    h, traffic, routing, "RR", offered):
                return m, p
        self.fail("quick point h=%d %s %s %.1f missing" % (h, traffic, routing, offered))

    def test_a_wrong_router_latency_fails(self):
        m, p = self._fogsim_point(2, "UN", "MIN", 0.1)
        self.assertEqual(failures(m, p, run_point(p, self.tmp)), [])
        bad = failures(m, p, run_point(p, self.tmp, ["router.latency=5"]))
        self.assertTrue(any("latency" in b for b in bad), bad)

    def test_a_wrong_saturation_point_fails(self):
        m, p = self._fogsim_point(2, "ADV+1", "MIN", 0.3)
        self.assertEqual(failures(m, p, run_point(p, self.tmp)), [])
        bad = failures(m, p, run_point(p, self.tmp, ["links.bandwidth_global=2"]))
        self.assertTrue(any("accepted" in b for b in bad), bad)


if __name__ == "__main__":
    unittest.main()
