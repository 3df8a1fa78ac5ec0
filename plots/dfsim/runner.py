"""Running dfsim from Python: run() one point, sweep() a sweep, through the ./dfsim binary."""

import json
import os
import shutil
import subprocess
import tempfile

from . import frames, libconfig

_CHECKOUT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class DfsimError(RuntimeError):
    """dfsim exited with an error; the message holds its standard error."""


def binary():
    """The dfsim binary: $DFSIM, else the checkout's ./dfsim (make dfsim), else dfsim on PATH."""
    path = os.environ.get("DFSIM")
    if path:
        return path
    local = os.path.join(_CHECKOUT, "dfsim")
    if os.path.isfile(local) and os.access(local, os.X_OK):
        return local
    found = shutil.which("dfsim")
    if found:
        return found
    raise DfsimError("no dfsim binary: build it (make dfsim in %s) or set DFSIM" % _CHECKOUT)


def _set_args(settings):
    """--set KEY=VALUE arguments from a dict {"traffic.load": 0.3} or a list ["traffic.load=0.3"]."""
    args = []
    if settings is None:
        return args
    if isinstance(settings, dict):
        items = []
        for key, value in libconfig.nest(settings).items():
            items.extend(_flat_items(key, value))
        settings = items
    for item in settings:
        args += ["--set", item]
    return args


def _flat_items(prefix, value):
    if isinstance(value, dict):
        out = []
        for k, v in value.items():
            out.extend(_flat_items(prefix + "." + k, v))
        return out
    text = libconfig.dumps({"x": value}).strip()[len("x = "):-1]
    if isinstance(value, str):
        text = value  # --set takes strings bare
    return ["%s=%s" % (prefix, text)]


def _call(args):
    proc = subprocess.run([binary()] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True)
    if proc.returncode != 0:
        raise DfsimError("dfsim %s: exit status %d\n%s" % (args[0], proc.returncode,
                                                           proc.stderr.strip()))
    return proc


def _config_file(config, tmp):
    if isinstance(config, dict):
        return libconfig.dump(_absolute_paths(config), os.path.join(tmp, "python.cfg"))
    return os.fspath(config)


# Settings that name files, taken by dfsim relative to the config file's folder: a dict config
# is written in a temporary folder, so these are made absolute (from the current directory).
_PATH_SETTINGS = {("stats", "packet_log"), ("jobs", "allocation_file")}


def _absolute_paths(config):
    config = libconfig.nest(config)
    for group, key in _PATH_SETTINGS:
        value = config.get(group)
        items = value if isinstance(value, list) else [value]
        for item in items:
            if isinstance(item, dict) and isinstance(item.get(key), str) and item[key] \
                    and not os.path.isabs(item[key]):
                item[key] = os.path.abspath(item[key])
    return config


def run(config, settings=None, out=None, options=(), name="python"):
    """Run one point and return its result document (a dict, src/METRICS.md).

    config: a config file (conf/default.cfg), a result document to rerun, or a dict of
    settings ({"topology": {"h": 2}, "routing.mechanism": "min"}: groups or dotted keys),
    written to a libconfig file NAME.cfg in a temporary folder (the document's config.name is
    `name`; settings left out take dfsim's defaults; the relative file names of
    stats.packet_log and jobs' allocation_file are taken from the current directory).
    settings: overrides as --set, a dict {"traffic.load": 0.3} or a list ["traffic.load=0.3"].
    out: where to keep the document (default: not kept). options: further arguments
    (["--isolate"]). Raises DfsimError with dfsim's message when dfsim refuses.

        >>> doc = dfsim.run("conf/default.cfg", {"routing.mechanism": "ugal"})
        >>> doc["load"]["accepted"]
    """
    tmp = tempfile.mkdtemp(prefix="dfsim-py-")
    try:
        if isinstance(config, dict):
            path = libconfig.dump(_absolute_paths(config), os.path.join(tmp, name + ".cfg"))
        else:
            path = os.fspath(config)
        target = os.fspath(out) if out else os.path.join(tmp, "result.json")
        _call(["run", path, "--quiet", "-o", target] + _set_args(settings) + list(options))
        with open(target, encoding="utf-8") as f:
            return json.load(f)
    finally:
        shutil.rmtree(tmp, True)


def info(config, settings=None, origins=True):
    """The text of `dfsim info` (with --origins: every setting written in the config or set)."""
    tmp = tempfile.mkdtemp(prefix="dfsim-py-")
    try:
        path = _config_file(config, tmp)
        return _call(["info", path] + _set_args(settings) +
                     (["--origins"] if origins else [])).stdout
    finally:
        shutil.rmtree(tmp, True)


def sweep(sweep_file, jobs=None, out=None, options=()):
    """Run a sweep (`dfsim sweep`, resumable: points already written are kept) and return
    load(out) of its points.

    sweep_file: a sweep file (conf/sweeps/example.cfg) or a dict of its settings (name, base,
    set, axes, variants; variants as a list of dicts; a relative base is taken from the current
    directory). jobs: parallel runs (--jobs). out: the sweep's directory (default: dfsim's,
    results/NAME relative to the current directory). options: further arguments.

        >>> df = dfsim.sweep("conf/sweeps/example.cfg", jobs=2)
    """
    tmp = tempfile.mkdtemp(prefix="dfsim-py-")
    try:
        if isinstance(sweep_file, dict):
            spec = dict(sweep_file)
            if isinstance(spec.get("base"), str) and not os.path.isabs(spec["base"]):
                spec["base"] = os.path.abspath(spec["base"])
            path = libconfig.dump(spec, os.path.join(tmp, "sweep.cfg"))
            name = spec.get("name")
        else:
            path = os.fspath(sweep_file)
            name = None
        args = ["sweep", path, "--quiet"]
        if jobs:
            args += ["--jobs", str(jobs)]
        if out is None:
            if name is None:
                name = _sweep_name(path)
            out = os.path.join("results", name)
        args += ["-o", os.fspath(out)]
        _call(args + list(options))
        return frames.load(os.fspath(out))
    finally:
        shutil.rmtree(tmp, True)


def _sweep_name(path):
    """The name = "..." of a sweep file (dfsim's default directory is results/NAME)."""
    import re
    with open(path, encoding="utf-8") as f:
        m = re.search(r'^\s*name\s*[=:]\s*"([^"]*)"', f.read(), re.M)
    if not m:
        raise DfsimError("%s: no name = \"...\"; pass out=" % path)
    return m.group(1)
