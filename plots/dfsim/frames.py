"""Result documents as pandas data frames: load(), load_series(), load_groups(), summarize().

Column names are the documents' own dotted paths (src/METRICS.md): the settings of "config"
without the "config." prefix (routing.mechanism, traffic.load, sim.seed, ...), the metrics with
their section (load.accepted, latency.p99, latency.breakdown.global_queues, fairness.max_min,
hops.global, steady_state.steady, link_load.global.max, ...). Lists (per-router counts, link
tables, series) are left out of these frames; load_series() has the time series.
"""

import json
import math
import os

import pandas as pd

import dfsim_results as dr

# Top-level sections of a result document that are not metrics of the run.
_NOT_METRICS = {"dfsim", "config", "sweep", "jobs", "series"}

# Columns that say where a row comes from, first in every frame.
ID_COLUMNS = ["path", "sweep", "variant", "routing", "pattern", "arbitration"]

# sweep.json figure name -> document path ("accepted" -> "load.accepted").
FIGURE_PATHS = {f["name"]: f["path"] for f in dr.RESULT_SCHEMA["figures"]}


def flatten(obj, prefix="", out=None, lists=False):
    """{"a": {"b": 1}, "c": [1, 2]} -> {"a.b": 1} (lists kept only with lists=True)."""
    if out is None:
        out = {}
    for key, value in obj.items():
        name = prefix + key
        if isinstance(value, dict):
            flatten(value, name + ".", out, lists)
        elif isinstance(value, list):
            if lists:
                out[name] = value
        else:
            out[name] = value
    return out


def settings_of(config):
    """The settings of a resolved config as flat columns (the jobs list and the name left out:
    "config.name" holds the latter)."""
    cols = flatten({k: v for k, v in config.items() if k not in ("jobs", "name")})
    if "name" in config:
        cols["config.name"] = config["name"]
    if isinstance(config.get("jobs"), list):
        cols["jobs"] = len(config["jobs"])
    return cols


def _identity(doc, path):
    """The columns that name a run: path, sweep, variant, routing, pattern, arbitration."""
    config = doc["config"]
    sweep = doc.get("sweep") or {}
    routing = dr.routing_label(config)
    row = {"path": path, "sweep": sweep.get("name"),
           "variant": sweep.get("variant") or routing, "routing": routing}
    try:
        row["pattern"] = dr.pattern_label(config)
    except KeyError:
        row["pattern"] = None
    row["arbitration"] = dr.setting_label(config)
    for key, value in sweep.items():
        if key not in ("name", "variant", "point") and not isinstance(value, (dict, list)):
            row["sweep." + key] = value
    if "saturation" in sweep:
        row["sweep.saturation_step"] = True
    return row


def run_row(doc, path=None):
    """One run document as a dict of columns (identity, settings, every scalar metric)."""
    row = _identity(doc, path)
    row.update(settings_of(doc["config"]))
    if "dfsim" in doc:
        row.update(flatten(doc["dfsim"], "dfsim."))
    for section, value in doc.items():
        if section in _NOT_METRICS:
            continue
        if isinstance(value, dict):
            flatten(value, section + ".", row)
        elif not isinstance(value, list):
            row[section] = value
    return row


def job_rows(doc, path=None):
    """The jobs of a jobs document, one dict of columns each: the run's identity and settings,
    the job's own settings as "jobs[].KEY", then the job's metrics (name as "job", kind,
    load.*, latency.*, messages.latency.*, iterations.*, runtime_cycles, slowdown.* ...)."""
    base = _identity(doc, path)
    base.update(settings_of(doc["config"]))
    configs = {j.get("name"): j for j in doc["config"].get("jobs", []) or []}
    rows = []
    for job in doc.get("jobs", []) or []:
        row = dict(base)
        row.update(flatten(configs.get(job.get("name"), {}), "jobs[]."))
        row["job"] = job.get("name")
        for key, value in flatten({k: v for k, v in job.items() if k != "name"}).items():
            # A job's own figures never hide a setting of the run (its "routing" section
            # and routing.mechanism, say): those become "job.KEY".
            row["job." + key if key in base else key] = value
        rows.append(row)
    return rows


def _expand(paths):
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    return [os.fspath(p) for p in paths]


def _documents(paths):
    """(path, document) of every run document under paths (directories recursively; sweep.json
    and JSON that is not a dfsim document skipped)."""
    for path in dr.find_result_files(paths):
        doc = dr.load_document(path)
        if isinstance(doc, dict) and "dfsim" in doc and "config" in doc:
            yield path, doc


def _frame(rows, front):
    df = pd.DataFrame(rows)
    cols = [c for c in front if c in df.columns]
    return df[cols + [c for c in df.columns if c not in cols]]


def load(paths, jobs=False, saturation_steps=False):
    """A data frame of the result documents under `paths`.

    paths: a path or a list of them: result documents (`dfsim run -o`), sweep directories
    (searched recursively for point documents; DIR/.stale and sweep.json skipped) or sweep.json
    files (one row per group of its "groups", see load_groups()).

    One row per run document: `path`, `sweep` (None for a plain run), `variant` (the sweep's
    variant, else the routing's label), `routing` ("MIN", "PB-CRG", "UGAL-L/adaptive_3" ...),
    `pattern` ("UN", "ADVc" ...), `arbitration` ("RR+TP" ...), every setting of its config
    (`routing.mechanism`, `traffic.load`, `sim.seed`, ...), and every scalar metric
    (`load.accepted`, `latency.mean`, `latency.p99`, `fairness.max_min`, `hops.global`,
    `steady_state.steady`, `link_load.global.max`, `run.cycles`, ...). fairness.max_min is NaN
    where a router starved (the document's null).

    saturation_steps=True keeps the steps of saturation searches (their load was chosen by
    bisection; `sweep.saturation_step` is True on them), left out by default as in the figures.

    jobs=True: one row per job of the jobs documents (runs of conf/jobs/*.cfg) instead, see
    job_rows(): `job`, `runtime_cycles`, `slowdown.runtime` (with sim.isolate),
    `messages.latency.mean`, `latency.p99`, ...

        >>> df = dfsim.load("results/example")
        >>> df.groupby(["variant", "traffic.load"])["load.accepted"].mean()
    """
    paths = _expand(paths)
    indexes = [p for p in paths if os.path.basename(p) == "sweep.json" and os.path.isfile(p)]
    others = [p for p in paths if p not in indexes]
    rows = []
    for path, doc in _documents(others) if others else ():
        if "saturation" in (doc.get("sweep") or {}) and not saturation_steps:
            continue
        if jobs:
            rows.extend(job_rows(doc, path))
        else:
            rows.append(run_row(doc, path))
    frames = []
    if rows or not indexes:
        if not rows:
            raise dr.ResultError("no dfsim %s in %s" % ("jobs documents" if jobs else
                                                          "result documents", ", ".join(paths)))
        frames.append(_frame(rows, ID_COLUMNS + ["job"]))
    if indexes:
        if jobs:
            raise dr.ResultError("sweep.json holds groups, not jobs: pass the sweep directory")
        frames.append(load_groups(indexes))
    return frames[0] if len(frames) == 1 else pd.concat(frames, ignore_index=True, sort=False)


def load_groups(paths):
    """A data frame of the groups of sweep.json files (named, or found under directories): one
    row per variant and point, its figures averaged over the seeds as written by `dfsim sweep`.
    Columns: `path`, `sweep`, `variant`, the point's settings (`traffic.load`, ...), `seeds`,
    and per figure the mean under the document's path (`load.accepted`, `latency.mean`, ...)
    with its 95% confidence half-width as `load.accepted.ci95` (and `fairness.max_min.starved`,
    the seeds where a router starved)."""
    rows = []
    for path in _sweep_files(_expand(paths)):
        index = dr.load_document(path)
        for entry in index.get("groups", []) or []:
            row = {"path": path, "sweep": index.get("sweep"), "variant": entry.get("variant")}
            row.update(entry.get("point") or {})
            for key, value in entry.items():
                if key in ("variant", "point"):
                    continue
                name = FIGURE_PATHS.get(key, key)
                if isinstance(value, dict):
                    row[name] = value.get("mean")
                    for sub, v in value.items():
                        if sub != "mean" and not isinstance(v, (dict, list)):
                            row[name + "." + sub] = v
                elif not isinstance(value, list):
                    row[name] = value
            rows.append(row)
    if not rows:
        raise dr.ResultError("no sweep.json groups in %s" % ", ".join(_expand(paths)))
    return _frame(rows, ["path", "sweep", "variant"])


def _sweep_files(paths):
    out = []
    for path in paths:
        if os.path.isdir(path):
            for root, dirs, names in os.walk(path):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                if "sweep.json" in names:
                    out.append(os.path.join(root, "sweep.json"))
        elif os.path.isfile(path):
            out.append(path)
        else:
            raise dr.ResultError("%s: no such file or directory" % path)
    return out


def load_series(paths, jobs=False):
    """The time series of the documents run with stats.sample_cycles > 0 (src/METRICS.md,
    "series"): one row per sample and document, with the run's identity columns, `sample`
    (0, 1, ...) and the series' columns (`end_cycle`, `offered`, `accepted`, `latency_mean`,
    `in_flight`, ...). Documents without series contribute no rows. jobs=True: the jobs'
    series instead (series.jobs of jobs documents), one row per sample and job: `job`,
    `sample`, `end_cycle` and the job's columns (`accepted`, `delivered`, `iterations`, ...).

        >>> s = dfsim.load_series("results/run.json")
        >>> s.plot(x="end_cycle", y="accepted")
    """
    rows = []
    for path, doc in _documents(_expand(paths)):
        series = doc.get("series")
        if not isinstance(series, dict):
            continue
        ident = _identity(doc, path)
        scalars = {"series." + k: v for k, v in series.items()
                   if not isinstance(v, (list, dict))}
        columns = {k: v for k, v in series.items() if isinstance(v, list) and k != "jobs"}
        if not jobs:
            rows.extend(_sample_rows(dict(ident, **scalars), columns))
            continue
        for job in series.get("jobs") or []:
            cols = {k: v for k, v in job.items() if isinstance(v, list)}
            if "end_cycle" in columns:
                cols = dict({"end_cycle": columns["end_cycle"]}, **cols)
            rows.extend(_sample_rows(dict(ident, job=job.get("name"), **scalars), cols))
    if not rows:
        raise dr.ResultError("no %stime series in %s (run with stats.sample_cycles > 0)"
                             % ("job " if jobs else "", ", ".join(_expand(paths))))
    return _frame(rows, ID_COLUMNS + ["job", "sample"])


def _sample_rows(base, columns):
    length = max((len(v) for v in columns.values()), default=0)
    for i in range(length):
        row = dict(base)
        row["sample"] = i
        for k, v in columns.items():
            row[k] = v[i] if i < len(v) else None
        yield row


# The groups of a config (conf/SETTINGS.md); "jobs[].KEY" are the settings of a job.
CONFIG_GROUPS = {"sim", "topology", "links", "buffers", "router", "vcs", "routing", "traffic",
                 "stats"}


def setting_columns(df):
    """The columns of df that are settings of the runs (from their configs), in order:
    GROUP.KEY for the config's groups, jobs[].KEY, config.name and jobs (how many)."""
    out = []
    for c in df.columns:
        head, dot, _ = str(c).partition(".")
        if (dot and head in CONFIG_GROUPS) or str(c).startswith("jobs[].") \
                or c in ("config.name", "jobs"):
            out.append(c)
    return out


def differing_settings(df, ignore=("sim.seed", "config.name")):
    """The settings (columns) whose value is not the same on every row of df."""
    out = []
    for c in setting_columns(df):
        if c in ignore:
            continue
        values = {json.dumps(v, sort_keys=True, default=str) for v in df[c]
                  if not (isinstance(v, float) and math.isnan(v))}
        if len(values) > 1:
            out.append(c)
    return out


def summarize(df, by, metrics=("load.accepted", "latency.mean"), strict=True):
    """Mean over the seeds: one row per combination of the `by` columns, with `METRIC` (the
    mean), `METRIC.ci95` (95% confidence half-width, Student t) and `seeds` (rows averaged).
    NaN values (a starved router's max_min) are left out of a metric's mean. With strict (the
    default), rows of one combination must differ only in the seed: a ValueError names the
    settings that differ otherwise (add them to `by`, or select rows first).

        >>> dfsim.summarize(df, ["routing", "traffic.load"], ["load.accepted"])
    """
    by = [by] if isinstance(by, str) else list(by)
    rows = []
    for key, part in df.groupby(by[0] if len(by) == 1 else by, sort=True, dropna=False):
        key = key if isinstance(key, tuple) and len(by) > 1 else (key,)
        if strict and len(part) > 1:
            diff = [d for d in differing_settings(part) if d not in by]
            if diff:
                raise ValueError("the runs of %s differ in %s, not only in the seed: add %s to "
                                 "the grouping or select rows first"
                                 % (", ".join("%s = %s" % kv for kv in zip(by, key)),
                                    ", ".join(diff), "it" if len(diff) == 1 else "one of them"))
        row = dict(zip(by, key))
        row["seeds"] = len(part)
        for m in metrics:
            values = [None if (v is None or (isinstance(v, float) and math.isnan(v)))
                      else float(v) for v in part[m]] if m in part else []
            st = dr.mean_ci(values)
            row[m] = st.mean
            row[m + ".ci95"] = st.ci95
        rows.append(row)
    return pd.DataFrame(rows)
