"""refcheck_compare: compares a result document with its recorded reference (tools/refcheck.sh).

    refcheck_compare.py NEW.json REFERENCE.json RECORD

Both are compared without "dfsim", "config" and "timing" (the version, the settings as
written and the speed may change; the simulated results may not). Numbers are compared as the
doubles they parse to, so the check is exact. With RECORD = 1 the reference is (re)written.
Exit status 0 when equal (or recorded), 1 with the differing keys listed otherwise.
"""
import json
import sys

IGNORED = ("dfsim", "config", "timing")


def stripped(path):
    with open(path) as f:
        doc = json.load(f)
    for key in IGNORED:
        doc.pop(key, None)
    return doc


def differences(new, ref, path=""):
    """Yields "path: new != ref" for every leaf that differs."""
    if isinstance(new, dict) and isinstance(ref, dict):
        for key in sorted(set(new) | set(ref)):
            if key not in new or key not in ref:
                yield "%s.%s: only in the %s document" % (path, key, "new" if key in new else "reference")
            else:
                yield from differences(new[key], ref[key], "%s.%s" % (path, key))
    elif isinstance(new, list) and isinstance(ref, list) and len(new) == len(ref):
        for i, (a, b) in enumerate(zip(new, ref)):
            yield from differences(a, b, "%s[%d]" % (path, i))
    elif new != ref or type(new) is not type(ref):
        yield "%s: %s != %s (reference)" % (path, json.dumps(new)[:80], json.dumps(ref)[:80])


def main():
    new_path, ref_path, record = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
    new = stripped(new_path)
    if record:
        with open(ref_path, "w") as f:
            json.dump(new, f, indent=1, sort_keys=True)
            f.write("\n")
        return 0
    try:
        ref = stripped(ref_path)
    except FileNotFoundError:
        print("refcheck: %s: no reference recorded (make refcheck-record)" % ref_path, file=sys.stderr)
        return 1
    diff = list(differences(new, ref))
    if not diff:
        return 0
    print("refcheck: %s differs from %s in %d values:" % (new_path.rsplit("/", 1)[-1], ref_path, len(diff)),
          file=sys.stderr)
    for line in diff[:12]:
        print("  " + line, file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
