"""dfsim: analysing dfsim results in Python (plots/README.md, "The Python package").

    import dfsim
    df = dfsim.load("results/example")                 # one row per run, a pandas DataFrame
    dfsim.plot_load(df, by="routing", out="load.png")  # accepted load and latency vs offered
    print(dfsim.fairness_table(df, by=["routing", "pattern"], fmt="markdown"))
    doc = dfsim.run({"topology": {"h": 2}, "routing": {"mechanism": "ugal"}})
    jobs = dfsim.load("results/interference", jobs=True)  # one row per job

Loading: load, load_series, load_groups, summarize, differing_settings. Running: run, sweep,
info (through the ./dfsim binary). Figures: plot_load, fairness_table, style, save. Configs:
libconfig.dumps/dump. Errors: ResultError (bad input), DfsimError (dfsim refused).
"""

import os
import sys

# The loader shared with the plotting scripts (plots/dfsim_results.py) lives beside this
# package; make it importable however the package was found.
_PLOTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if _PLOTS not in sys.path:
    sys.path.append(_PLOTS)

from dfsim_results import ResultError  # noqa: E402

from . import libconfig  # noqa: E402
from .frames import (load, load_series, load_groups, summarize,  # noqa: E402
                     differing_settings, setting_columns)
from .runner import run, sweep, info, binary, DfsimError  # noqa: E402
from .plot import plot_load, fairness_table, style, save  # noqa: E402

__all__ = ["load", "load_series", "load_groups", "summarize", "differing_settings",
           "setting_columns", "run", "sweep", "info", "binary", "plot_load", "fairness_table",
           "style", "save", "libconfig", "ResultError", "DfsimError"]
