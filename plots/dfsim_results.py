"""Reading dfsim result documents (src/METRICS.md, results/README.md) for the plotting scripts.

Everything here is data: no matplotlib. The scripts import this module, select the groups they
draw, and keep their drawing functions separate so both halves can be tested.

Inputs are result documents written by `dfsim run` or `dfsim sweep`: files, or directories
searched recursively for *.json. A point written by a sweep carries a top-level "sweep" object
(name, variant, point, hash); a plain `dfsim run` document does not, and its variant name is
derived from its config. Runs that differ only in `sim.seed` form one group, whose statistics are
the mean over the seeds and the 95% confidence half-width (Student t). When a directory holds the
sweep's merged `sweep.json`, its "groups" (mean/ci95 per metric) and "saturation_groups" are used
for the groups they describe, so the figures show exactly what the sweep reported.
"""

import json
import math
import os

# The newest result schema this reader understands. Kept here, not read from
# result_schema.json: a bump means keys changed, and the code below must be looked at
# (plots/tests/test_schema.py fails until it is).
SCHEMA = 1

# Canonical order and labels: the literature's names for the mechanisms.
VARIANT_ORDER = [
    "MIN", "VAL", "VAL-any",
    "Obl-CRG", "Obl-RRG",
    "PB-CRG", "PB-RRG",
    "IT-CRG", "IT-RRG", "IT-NRG", "IT-MM",
    "UGAL-L", "UGAL-G", "FPAR",
]

# The Aries modes of UGAL (routing.ugal_preset), in order.
PRESET_ORDER = ["adaptive_0", "adaptive_1", "adaptive_2", "adaptive_3", "min_hash", "nmin_hash"]

PATTERN_LABELS = {
    "uniform": "UN",
    "adversarial_consecutive": "ADVc",
    "bit_complement": "BC",
    "permutation": "PERM",
}

SETTING_ORDER = ["RR+TP", "RR", "Age", "Age+TP"]

# Student t quantiles t(0.975, df) for df = 1..30; above 30 the normal 1.96 is close enough.
_T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
         2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
         2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042]

# The shape of the result document comes from dfsim's own table (src/result_schema.c) through
# result_schema.json, the output of `./dfsim schema --json`. It is a committed file rather than
# a call to the binary because results are often plotted where dfsim was not built (copied
# from a cluster, say); plots/tests/test_schema.py and dfsim-test fail when it differs from
# the table (regenerate it with `./dfsim schema --json > plots/result_schema.json`).
RESULT_SCHEMA_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                  "result_schema.json")


def load_result_schema(path=RESULT_SCHEMA_FILE):
    """The table of `dfsim schema --json`: {"schema", "sections", "figures"}."""
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def section_at(schema, path):
    """The section of the object at a dotted path of the document ("latency.breakdown"); the
    empty path is the document itself."""
    sections = {s["name"]: s for s in schema["sections"]}
    section = schema["sections"][0]
    for key in path.split(".") if path else []:
        field = next((f for f in section["fields"] if f["key"] == key), None)
        if field is None or "section" not in field:
            raise KeyError("%s: not an object of the result document" % path)
        section = sections[field["section"]]
    return section


def _value_at(path):
    """function(doc) -> the value at a dotted path (KeyError when the document lacks it)."""
    keys = path.split(".")

    def value(doc):
        for key in keys:
            doc = doc[key]
        return doc
    return value


RESULT_SCHEMA = load_result_schema()

# The metrics a group exposes, the key figures of the table: name -> function(doc) -> number or
# None (max_min is None when a router starved).
METRICS = {f["name"]: _value_at(f["path"]) for f in RESULT_SCHEMA["figures"]}

# Where sweep.json's groups count the seeds whose value of a metric was null (max_min:
# "starved"), or None.
NULLS_KEYS = {f["name"]: f["nulls_key"] for f in RESULT_SCHEMA["figures"]}

# The parts of the latency breakdown, in document order.
BREAKDOWN_PARTS = [f["key"] for f in section_at(RESULT_SCHEMA, "latency.breakdown")["fields"]]


class ResultError(Exception):
    """Bad or missing input: the scripts print the message and exit with status 2."""


# ---------------------------------------------------------------------------------------------
# Names derived from a config

def routing_label(config):
    """The literature's name of the routing in a resolved config, e.g. "PB-RRG", "VAL-any",
    "UGAL-L", "UGAL-G/adaptive_3" (an Aries preset, routing.ugal_preset, after the slash),
    "FPAR"."""
    r = config["routing"]
    mech = r["mechanism"]
    policy = str(r.get("global_policy", "")).upper()
    if mech == "min":
        return "MIN"
    if mech == "valiant":
        return "VAL-any" if r.get("valiant_target") == "router" else "VAL"
    if mech == "oblivious":
        return "Obl-" + policy
    if mech == "piggyback":
        return "PB-" + policy
    if mech == "in_transit":
        return "IT-" + policy
    if mech in ("ugal", "ugal_g"):
        name = "UGAL-L" if mech == "ugal" else "UGAL-G"
        preset = r.get("ugal_preset", "none")
        return name if preset in (None, "none") else name + "/" + preset
    if mech == "fpar":
        return "FPAR"
    return mech


def setting_label(config):
    """The arbitration setting: "RR+TP", "RR", "Age", "Age+TP"."""
    router = config.get("router", {})
    arb = router.get("arbiter", "round_robin")
    name = {"round_robin": "RR", "age": "Age"}.get(arb, arb)
    return name + ("+TP" if router.get("transit_priority") else "")


def pattern_label(config):
    """"UN", "ADV+1", "ADVc", "BC", "PERM" (the config name for unknown patterns)."""
    t = config["traffic"]
    pat = t["pattern"]
    if pat == "adversarial":
        return "ADV+%d" % t.get("offset", 1)
    return PATTERN_LABELS.get(pat, pat)


def pattern_sort_key(label):
    if label == "UN":
        return (0, 0, label)
    if label.startswith("ADV+"):
        try:
            return (1, int(label[4:]), label)
        except ValueError:
            return (1, 0, label)
    order = {"ADVc": 2, "BC": 3, "PERM": 4}
    return (order.get(label, 5), 0, label)


def variant_sort_key(name):
    base = name.split(" ")[0]
    mech, _, preset = base.partition("/")
    idx = VARIANT_ORDER.index(mech) if mech in VARIANT_ORDER else len(VARIANT_ORDER)
    pidx = PRESET_ORDER.index(preset) if preset in PRESET_ORDER else -1 if not preset else 99
    return (idx, pidx, name)


def setting_sort_key(name):
    return (SETTING_ORDER.index(name) if name in SETTING_ORDER else len(SETTING_ORDER), name)


def normalize_pattern(text):
    """Accept a label ("ADVc") or a config name ("adversarial_consecutive") on the command line."""
    if text is None:
        return None
    if text in PATTERN_LABELS:
        return PATTERN_LABELS[text]
    if text == "adversarial":
        return "ADV+1"
    return text


# ---------------------------------------------------------------------------------------------
# Loading

class Record:
    """One result document with the fields the figures select on."""

    def __init__(self, doc, path):
        for key in ("config", "load", "latency", "fairness", "network"):
            if key not in doc:
                raise ResultError("%s: not a dfsim result document (no \"%s\")" % (path, key))
        schema = doc.get("dfsim", {}).get("schema")
        if schema is not None and schema > SCHEMA:
            raise ResultError("%s: result schema %s is newer than this reader (%d)"
                              % (path, schema, SCHEMA))
        self.doc = doc
        self.path = path
        config = doc["config"]
        self.config = config
        sweep = doc.get("sweep")
        self.sweep_name = sweep.get("name") if sweep else None
        self.point = dict(sweep.get("point", {})) if sweep else {}
        # A step of a saturation search: its load was chosen by bisection, not by the grid.
        self.saturation_step = bool(sweep and "saturation" in sweep)
        self.routing = routing_label(config)
        self.setting = setting_label(config)
        self.variant = self.routing
        self.sweep_variant = sweep.get("variant") if sweep else None
        if sweep and sweep.get("variant"):
            # Sweeps crossing routings with arbitration settings name their variants
            # ROUTING_SETTING (e.g. "PB-CRG_RR+TP"): the setting is shown separately.
            self.variant = sweep["variant"]
            suffix = "_" + self.setting
            if self.variant.endswith(suffix) and len(self.variant) > len(suffix):
                self.variant = self.variant[:-len(suffix)]
        self.pattern = pattern_label(config)
        self.load = float(config["traffic"]["load"])
        self.seed = config["sim"]["seed"]
        self.h = config["topology"]["h"]
        self.a = config["topology"]["a"]
        self.p = config["topology"]["p"]

    def metric(self, name):
        try:
            return METRICS[name](self.doc)
        except KeyError:
            return None

    def group_key(self):
        """Documents equal but for the seed (and the config's name) share this key."""
        config = {k: v for k, v in self.config.items() if k != "name"}
        config["sim"] = {k: v for k, v in config["sim"].items() if k != "seed"}
        return (self.sweep_name or "", self.variant, json.dumps(config, sort_keys=True))


def _is_result_name(name):
    # Hidden files are a sweep's partial writes (renamed into place when complete).
    return name.endswith(".json") and name != "sweep.json" and not name.startswith(".")


def find_result_files(paths):
    """Result files named by `paths` (files, or directories searched recursively), sorted.
    Hidden directories are skipped: `dfsim sweep` keeps the documents of points whose config
    changed in DIR/.stale/, and they are not results of the sweep as it is now."""
    files = []
    for path in paths:
        if os.path.isdir(path):
            for root, dirs, names in os.walk(path):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                files.extend(os.path.join(root, n) for n in sorted(names) if _is_result_name(n))
        elif os.path.isfile(path):
            files.append(path)
        else:
            raise ResultError("%s: no such file or directory" % path)
    return files


def find_sweep_indexes(paths):
    """The merged sweep.json documents found in (or named by) `paths`."""
    indexes = []
    for path in paths:
        candidates = []
        if os.path.isdir(path):
            for root, dirs, names in os.walk(path):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                if "sweep.json" in names:
                    candidates.append(os.path.join(root, "sweep.json"))
        elif os.path.basename(path) == "sweep.json":
            candidates.append(path)
        for c in candidates:
            with open(c, encoding="utf-8") as f:
                try:
                    indexes.append(json.load(f))
                except ValueError as e:
                    raise ResultError("%s: bad JSON: %s" % (c, e))
    return indexes


def quantile(values, q):
    """Nearest rank, q in (0, 100] (the simulator's convention); None for no values."""
    if not values:
        return None
    s = sorted(values)
    return s[max(0, math.ceil(q / 100.0 * len(s)) - 1)]


def load_document(path):
    """One JSON file's content; ResultError naming the file if it is not JSON."""
    with open(path, encoding="utf-8") as f:
        try:
            return json.load(f)
        except ValueError as e:
            raise ResultError("%s: bad JSON: %s" % (path, e))


def job_documents(paths):
    """(path, document) for every result document under `paths` that has jobs (sweep.json and
    other JSON skipped), in file order."""
    for path in find_result_files(paths):
        if os.path.basename(path) == "sweep.json":
            continue
        doc = load_document(path)
        if isinstance(doc, dict) and "jobs" in doc:
            yield path, doc


def load_records(paths, saturation_steps=False):
    """Every result document under `paths`, as Records (sweep.json and non-results skipped;
    the steps of saturation searches too, unless saturation_steps)."""
    records = []
    for path in find_result_files(paths):
        if os.path.basename(path) == "sweep.json":
            continue
        doc = load_document(path)
        if not isinstance(doc, dict) or "dfsim" not in doc:
            continue  # some other JSON file lying in the directory
        record = Record(doc, path)
        if record.saturation_step and not saturation_steps:
            continue
        records.append(record)
    if not records:
        raise ResultError("no dfsim result documents in %s" % ", ".join(paths))
    return records


# ---------------------------------------------------------------------------------------------
# Statistics over seeds

class Stat:
    """Mean over the seeds and the 95% CI half-width (0 for one seed). Max/Min is infinite
    (JSON null) when a router injected nothing: such seeds are counted in `starved` and left out
    of the mean, as `dfsim merge` does; a mean of None means every seed starved."""

    def __init__(self, mean, ci95, n, starved=0):
        self.mean = mean
        self.ci95 = ci95
        self.n = n
        self.starved = starved

    def __repr__(self):
        return "Stat(%r, %r, %r, starved=%r)" % (self.mean, self.ci95, self.n, self.starved)


def t975(df):
    if df < 1:
        return 0.0
    return _T975[df - 1] if df <= len(_T975) else 1.96


def mean_ci(values):
    """Stat of a list of numbers; None values (infinite Max/Min) count as starved."""
    finite = [v for v in values if v is not None]
    starved = len(values) - len(finite)
    n = len(finite)
    if n == 0:
        return Stat(None, None, len(values), starved)
    mean = sum(finite) / n
    if n == 1:
        return Stat(mean, 0.0, len(values), starved)
    var = sum((v - mean) ** 2 for v in finite) / (n - 1)
    return Stat(mean, t975(n - 1) * math.sqrt(var) / math.sqrt(n), len(values), starved)


class Group:
    """The runs of one configuration that differ only in the seed."""

    def __init__(self, records):
        self.records = sorted(records, key=lambda r: (str(r.seed), r.path))
        first = self.records[0]
        self.sweep_name = first.sweep_name
        self.variant = first.variant
        self.sweep_variant = first.sweep_variant
        self.routing = first.routing
        self.setting = first.setting
        self.pattern = first.pattern
        self.load = first.load
        self.h, self.a, self.p = first.h, first.a, first.p
        self.config = first.config
        self.point = {k: v for k, v in first.point.items() if k != "sim.seed"}
        self.overrides = {}  # metric -> Stat, from sweep.json

    @property
    def seeds(self):
        return len(self.records)

    def stat(self, metric):
        if metric in self.overrides:
            return self.overrides[metric]
        return mean_ci([r.metric(metric) for r in self.records])

    def mean_vector(self, getter):
        """Element-wise mean over the seeds of a list-valued field (e.g. group0_injected_load)."""
        rows = [getter(r.doc) for r in self.records]
        width = min(len(row) for row in rows)
        return [sum(row[i] for row in rows) / len(rows) for i in range(width)]

    def breakdown(self):
        """Mean over the seeds of each latency breakdown part."""
        out = {}
        for part in BREAKDOWN_PARTS:
            vals = [r.doc["latency"].get("breakdown", {}).get(part, 0.0) for r in self.records]
            out[part] = sum(vals) / len(vals)
        return out



def _stat_from_index(entry, nulls_key=None):
    """A Stat from a sweep.json group figure {"mean", "ci95"[, nulls_key]}: the seeds whose
    value was null (max_min: "starved") are counted under the figure's nulls_key."""
    if isinstance(entry, dict):
        ci = entry.get("ci95")
        starved = entry.get(nulls_key, 0) if nulls_key else 0
        return Stat(entry.get("mean"), ci if ci is not None else 0.0, None, int(starved or 0))
    if isinstance(entry, (int, float)):
        return Stat(float(entry), 0.0, None)
    return None


def _point_key(point):
    return json.dumps({k: v for k, v in point.items() if k != "sim.seed"}, sort_keys=True)


def group_records(records, indexes=()):
    """Groups of records equal but for the seed, in a deterministic order; sweep.json groups
    (mean/ci95 per metric) override the computed statistics of the groups they name."""
    by_key = {}
    for r in records:
        by_key.setdefault(r.group_key(), []).append(r)
    groups = [Group(rs) for rs in by_key.values()]
    lookup = {}
    for g in groups:
        if g.sweep_name is not None:
            lookup[(g.sweep_name, g.sweep_variant, _point_key(g.point))] = g
    for index in indexes:
        name = index.get("sweep")
        for entry in index.get("groups", []) or []:
            g = lookup.get((name, entry.get("variant"), _point_key(entry.get("point", {}))))
            if g is None:
                continue
            for metric in METRICS:
                if metric in entry:
                    st = _stat_from_index(entry[metric], NULLS_KEYS[metric])
                    if st is not None:
                        st.n = entry.get("seeds", g.seeds)
                        g.overrides[metric] = st
    groups.sort(key=lambda g: (variant_sort_key(g.variant), setting_sort_key(g.setting),
                               pattern_sort_key(g.pattern), g.h, g.load, g.sweep_name or "",
                               json.dumps(g.config, sort_keys=True)))
    return groups


def load_groups(paths):
    """Convenience: the groups of every result under `paths`, with sweep.json overrides."""
    return group_records(load_records(paths), find_sweep_indexes(paths))


def _index_pattern(point):
    pat = point.get("traffic.pattern")
    if pat is None:
        return None
    if pat == "adversarial":
        return "ADV+%d" % point.get("traffic.offset", 1)
    return normalize_pattern(pat)


def sweep_saturation(indexes):
    """Saturation loads found by the sweeps' saturation searches: {(variant, pattern label, or
    None when the pattern is not an axis): load}. Uses sweep.json "saturation_groups" (mean over
    the seeds), else the complete searches of "saturation"."""
    out = {}
    for index in indexes:
        groups = index.get("saturation_groups") or []
        for e in groups:
            load = e.get("load")
            value = load.get("mean") if isinstance(load, dict) else load
            if isinstance(value, (int, float)):
                out[(e.get("variant"), _index_pattern(e.get("point") or {}))] = float(value)
        if groups:
            continue
        found = {}
        for e in index.get("saturation") or []:
            if isinstance(e, dict) and isinstance(e.get("load"), (int, float)) and \
                    e.get("complete", True):
                key = (e.get("variant"), _index_pattern(e.get("point") or {}))
                found.setdefault(key, []).append(float(e["load"]))
        for key, loads in found.items():
            out[key] = sum(loads) / len(loads)
    return out


# ---------------------------------------------------------------------------------------------
# Selection helpers shared by the scripts

def filter_groups(groups, pattern=None, variants=None, settings=None, load=None, h=None):
    pattern = normalize_pattern(pattern)
    out = []
    for g in groups:
        if pattern is not None and g.pattern != pattern:
            continue
        if variants and g.variant not in variants and g.routing not in variants:
            continue
        if settings and g.setting not in settings:
            continue
        if load is not None and abs(g.load - load) > 1e-9:
            continue
        if h is not None and g.h != h:
            continue
        out.append(g)
    return out


def patterns_of(groups):
    return sorted({g.pattern for g in groups}, key=pattern_sort_key)


def settings_of(groups):
    return sorted({g.setting for g in groups}, key=setting_sort_key)


def split_series(groups, x="load"):
    """[(label, [groups])]: the lines of a panel. A line is a variant, plus whatever else tells
    apart groups that would otherwise share a line: the arbitration setting, the network size
    (unless it is the x axis), the sweep. `x` names the attribute along the line ("load", "h", or
    None for one group per line); groups still colliding at the same x are an error."""
    def distinct(attr, parts):
        """Some line of `parts` would mix values of attr."""
        seen = {}
        for g in groups:
            seen.setdefault(tuple(getattr(g, a) for a in parts), set()).add(getattr(g, attr))
        return any(len(v) > 1 for v in seen.values())

    def collide(parts):
        """Some line of `parts` would have two groups at the same point."""
        seen = set()
        for g in groups:
            key = tuple(getattr(g, a) for a in parts) + (g.pattern, getattr(g, x) if x else 0)
            if key in seen:
                return True
            seen.add(key)
        return False

    # A line never mixes arbitration settings, nor sizes unless the size is its x axis; sweeps
    # are told apart only where two of them ran the same point (the size study joins several).
    parts = ["variant"]
    if distinct("setting", parts):
        parts.append("setting")
    if x != "h" and distinct("h", parts):
        parts.append("h")
    if collide(parts):
        parts.append("sweep_name")
    series = {}
    for g in groups:
        series.setdefault(tuple(getattr(g, a) for a in parts), []).append(g)
    for key, gs in series.items():
        at = [(g.pattern, getattr(g, x) if x else 0) for g in gs]
        if len(set(at)) != len(at):
            raise ResultError("results of %s differ in %s (settings other than the seed, the "
                              "variant, the arbitration and the size); select some with the "
                              "filters or pass fewer inputs"
                              % (gs[0].variant, ", ".join(differing_settings(gs)) or
                                 "the sweep they belong to"))

    def sort_key(item):
        g = item[1][0]
        return (variant_sort_key(g.variant), setting_sort_key(g.setting), g.h,
                g.sweep_name or "")

    out = []
    for key, gs in sorted(series.items(), key=sort_key):
        g = gs[0]
        extra = []
        if "setting" in parts:
            extra.append(g.setting)
        if "h" in parts:
            extra.append("h=%d" % g.h)
        if "sweep_name" in parts:
            extra.append(g.sweep_name or "run")
        out.append((g.variant + (" (%s)" % ", ".join(extra) if extra else ""), gs))
    return out


def _flat_config(config, prefix=""):
    out = {}
    for key, value in config.items():
        if isinstance(value, dict):
            out.update(_flat_config(value, prefix + key + "."))
        else:
            out[prefix + key] = json.dumps(value, sort_keys=True)
    return out


def differing_settings(groups):
    """The dotted settings ("routing.ugal_bias") whose value differs among the configs of
    `groups` (or Records), leaving out the seed and the config's name."""
    flats = [_flat_config(g.config) for g in groups]
    keys = sorted(set().union(*flats)) if flats else []
    return [k for k in keys if k not in ("name", "sim.seed")
            and len({f.get(k) for f in flats}) > 1]


def choose_traffic_point(groups, pattern=None, load=None):
    """The (pattern, load) to show: the one given, else the only one in the data, else ADVc 0.4
    when present; anything else is an error naming the choices."""
    pattern = normalize_pattern(pattern)
    sel = filter_groups(groups, pattern=pattern, load=load)
    combos = sorted({(g.pattern, g.load) for g in sel},
                    key=lambda c: (pattern_sort_key(c[0]), c[1]))
    if len(combos) == 1:
        return combos[0]
    if not combos:
        raise ResultError("no results match the pattern/load filters")
    if pattern is None and load is None and ("ADVc", 0.4) in combos:
        return ("ADVc", 0.4)
    raise ResultError("several traffic points; choose one with --pattern and --load among: "
                      + ", ".join("%s %s" % (p, _fmt_load(x)) for p, x in combos))


def _fmt_load(x):
    return ("%.3f" % x).rstrip("0").rstrip(".")


def estimate_saturation(groups, fraction=0.95):
    """The highest offered load whose accepted load is >= fraction * offered, over the groups of
    one series (one variant and pattern); returns (load or None, reached) where reached is False
    when every load satisfies the rule (saturation lies beyond the sweep)."""
    best = None
    all_ok = True
    for g in sorted(groups, key=lambda g: g.load):
        acc = g.stat("accepted").mean
        off = g.stat("offered").mean
        if off is None or acc is None:
            continue
        if acc >= fraction * off:
            best = g.load
        else:
            all_ok = False
    return best, not all_ok


# Fixed colours and markers so a variant looks the same in every figure: every routing of
# conf/sweeps/ and every UGAL preset (routing.ugal_preset) has its own colour AND its own marker
# (plots/tests/test_package.py checks that no two share either). A label "UGAL-G/adaptive_3"
# takes the preset's colour and marker; UGAL-G is told from UGAL-L by its dashed line.
_COLORS = {
    "MIN": "#000000", "VAL": "#7f7f7f", "VAL-any": "#bcbd22",
    "Obl-CRG": "#1f77b4", "Obl-RRG": "#17becf",
    "PB-CRG": "#2ca02c", "PB-RRG": "#98df8a",
    "IT-CRG": "#d62728", "IT-RRG": "#ff7f0e", "IT-NRG": "#e377c2", "IT-MM": "#9467bd",
    "UGAL-L": "#8c564b", "UGAL-G": "#d2a679", "FPAR": "#00796b",
    "adaptive_0": "#08306b", "adaptive_1": "#6b8fd6", "adaptive_2": "#c9a100",
    "adaptive_3": "#8b0a50", "min_hash": "#556b2f", "nmin_hash": "#ff4f9a",
}
_EXTRA = ["#aec7e8", "#ffbb78", "#c5b0d5", "#c49c94", "#f7b6d2", "#dbdb8d", "#9edae5",
          "#393b79", "#637939", "#843c39"]
_MARKERS = {"MIN": "o", "VAL": "s", "VAL-any": "D", "Obl-CRG": "^", "Obl-RRG": "v",
            "PB-CRG": "<", "PB-RRG": ">", "IT-CRG": "p", "IT-RRG": "h", "IT-NRG": "*",
            "IT-MM": "X", "UGAL-L": "P", "UGAL-G": "d", "FPAR": "H",
            "adaptive_0": "8", "adaptive_1": "1", "adaptive_2": "2", "adaptive_3": "3",
            "min_hash": "4", "nmin_hash": "x"}
_EXTRA_MARKERS = ["o", "s", "D", "^", "v", "<", ">", "p", "h"]

# The same styles under the config's names: routing.mechanism values stand for their label.
MECHANISM_LABELS = {"min": "MIN", "valiant": "VAL", "oblivious": "Obl-CRG",
                    "piggyback": "PB-CRG", "in_transit": "IT-CRG", "ugal": "UGAL-L",
                    "ugal_g": "UGAL-G", "fpar": "FPAR"}


def style_key(name):
    """The palette entry of a variant label, routing label, mechanism or preset name: "PB-CRG
    (Age)" -> "PB-CRG", "UGAL-G/adaptive_3" -> "adaptive_3", "ugal" -> "UGAL-L"; None when
    the palette has none."""
    base = str(name).split(" ")[0]
    mech, _, preset = base.partition("/")
    for key in (preset, base, mech, MECHANISM_LABELS.get(base)):
        if key and key in _COLORS:
            return key
    return None


def variant_color(name, index=0):
    key = style_key(name)
    return _COLORS[key] if key else _EXTRA[index % len(_EXTRA)]


def variant_marker(name, index=0):
    key = style_key(name)
    return _MARKERS[key] if key else _EXTRA_MARKERS[index % len(_EXTRA_MARKERS)]


def setting_linestyle(label):
    if str(label).split(" ")[0].startswith("UGAL-G/"):
        return "--"
    if "(" not in label:
        return "-"
    tail = label[label.index("("):]
    if "Age" in tail:
        return ":"
    if "RR+TP" in tail:
        return "-"
    return "--"
