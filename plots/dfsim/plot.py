"""Figures from data frames: plot_load() (any metric against any setting, one line per value of
any grouping column), style() (the colour, marker and line of a routing, preset or any value)
and fairness_table()."""

import math

import dfsim_results as dr

from . import frames


def style(value, index=0, by=None):
    """matplotlib keywords {color, marker, linestyle} of one line.

    Routing labels ("MIN", "PB-CRG", "UGAL-L/adaptive_3", "FPAR", with a "(RR+TP)" tail too),
    routing.mechanism values ("ugal", "fpar") and UGAL presets ("adaptive_0" .. "adaptive_3",
    "min_hash", "nmin_hash") have fixed styles, the same in every figure, each with its own
    colour and marker. Other values (loads, sizes, sweep variants) take the index-th of a cycle
    of colours that no routing uses."""
    text = "%s" % (value,)
    key = dr.style_key(text)
    if key is None:
        return {"color": dr._EXTRA[index % len(dr._EXTRA)],
                "marker": dr._EXTRA_MARKERS[index % len(dr._EXTRA_MARKERS)],
                "linestyle": "-"}
    return {"color": dr.variant_color(text), "marker": dr.variant_marker(text),
            "linestyle": dr.setting_linestyle(text)}


METRIC_LABELS = {
    "load.accepted": "accepted load (phits/node/cycle)",
    "load.offered": "offered load (phits/node/cycle)",
    "load.injected": "injected load (phits/node/cycle)",
    "traffic.load": "offered load (phits/node/cycle)",
    "latency.mean": "mean latency (cycles)",
    "latency.p99": "99th percentile latency (cycles)",
    "fairness.max_min": "Max/Min injected load",
    "fairness.min_injected_load": "min injected load (phits/node/cycle)",
    "fairness.cov": "CoV of injected load",
    "hops.global": "global hops per packet",
    "hops.local": "local hops per packet",
    "topology.h": "h (global links per router)",
}


def _key_text(key):
    return ", ".join("%s" % (k,) for k in key) if isinstance(key, tuple) else "%s" % (key,)


def _sort_value(v):
    if isinstance(v, tuple):
        return tuple(_sort_value(x) for x in v)
    text = "%s" % (v,)
    return (dr.variant_sort_key(text) if dr.style_key(text) else (99, 0, ""),
            (0, v, "") if isinstance(v, (int, float)) else (1, 0, text))


def plot_load(df, by="routing", x="traffic.load", y=("load.accepted", "latency.mean"),
              panels="pattern", title=None, xlabel=None, ylabels=None, legend_title=None,
              figsize=None, fontsize=None, logy=None, out=None, dpi=120):
    """Lines of metrics against a setting, as in the papers' load figures.

    df: a frame of load() (one row per run; the seeds are averaged here, with 95% confidence
    bars when a point has several). by: the column (or list of columns) whose values are the
    lines: "routing" (the default), "routing.mechanism", "routing.ugal_preset", "variant",
    "router.arbiter", "topology.h", any column. x: the column along the line. y: one metric or
    a list (one row of panels each). panels: the column whose values are the columns of panels
    ("pattern"; None for one). logy: a metric name or list of them drawn on a log axis (default:
    latency metrics whose values span more than a factor 4). title, xlabel, ylabels ({metric:
    label}), legend_title, figsize ((w, h) inches), fontsize (points, all text) set the labels
    and size. out: a .png/.pdf/.svg path to write. Returns the matplotlib Figure.

    Rows of one line at one x must differ only in the seed: otherwise a ValueError names the
    settings that differ (add one of them to `by` or select rows first).

        >>> fig = dfsim.plot_load(df, by="routing.ugal_preset", out="presets.png")
    """
    import matplotlib
    import matplotlib.pyplot as plt
    from matplotlib import ticker

    ys = [y] if isinstance(y, str) else list(y)
    bys = [by] if isinstance(by, str) else list(by)
    for c in bys + [x] + ys + ([panels] if panels else []):
        if c not in df.columns:
            raise KeyError("%s: no such column (columns: %s)" % (c, ", ".join(df.columns)))
    df = df.copy()
    for c in bys + ([panels] if panels else []):
        if df[c].isna().any():  # documents without the setting: a line "-" of their own
            df[c] = [("-" if v != v else int(v) if isinstance(v, float) and v.is_integer()
                      else v) for v in df[c]]
    if panels is None:
        df["_panel"] = ""
        panels = "_panel"
    keys = bys + [x, panels]
    for key, part in df.groupby(keys, dropna=False, sort=False):
        if len(part) > 1:
            diff = [d for d in frames.differing_settings(part) if d not in keys]
            if diff:
                raise ValueError("the runs of %s at %s = %s differ in %s, not only in the "
                                 "seed: add %s to by= or select rows first"
                                 % (_key_text(tuple(key[:len(bys)])), x, key[len(bys)],
                                    ", ".join(diff), "it" if len(diff) == 1 else "one"))
    line_key = bys[0] if len(bys) == 1 else "_line"
    if len(bys) > 1:
        df["_line"] = list(zip(*(df[b] for b in bys)))
    summary = frames.summarize(df, [panels, line_key, x], ys, strict=False)
    panel_values = sorted(summary[panels].unique(), key=lambda v: dr.pattern_sort_key("%s" % v)
                          if panels == "pattern" else _sort_value(v))
    lines = sorted(summary[line_key].unique(), key=_sort_value)
    if logy is None:
        logy = []
        for m in ys:
            vals = [v for v in summary[m] if v is not None and not math.isnan(v) and v > 0]
            if m.startswith("latency.") and vals and max(vals) > 4 * min(vals):
                logy.append(m)
    elif isinstance(logy, str):
        logy = [logy]
    ylabels = ylabels or {}
    rc = {"font.size": fontsize, "axes.titlesize": fontsize, "axes.labelsize": fontsize,
          "legend.fontsize": fontsize, "xtick.labelsize": fontsize,
          "ytick.labelsize": fontsize} if fontsize else {}
    with matplotlib.rc_context(rc):
        ncols, nrows = len(panel_values), len(ys)
        if figsize is None:
            figsize = (3.8 * ncols + 1.8, 3.0 * nrows + 0.6)
        fig, axes = plt.subplots(nrows, ncols, figsize=figsize, squeeze=False, sharex="col")
        handles = {}
        for col, pv in enumerate(panel_values):
            for row, m in enumerate(ys):
                ax = axes[row][col]
                for i, lv in enumerate(lines):
                    part = summary[(summary[panels] == pv) & (summary[line_key] == lv)]
                    part = part[part[m].notna()].sort_values(x)
                    if part.empty:
                        continue
                    st = style(_key_text(lv), i)
                    multi = part["seeds"].max() > 1
                    h = ax.errorbar(part[x], part[m], yerr=part[m + ".ci95"] if multi else None,
                                    markersize=4, linewidth=1.2, capsize=2 if multi else 0,
                                    label=_key_text(lv), **st)
                    handles.setdefault(_key_text(lv), h)
                if m in logy:
                    ax.set_yscale("log")
                    ax.yaxis.set_major_locator(ticker.LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
                    ax.yaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _p: "%g" % v))
                    ax.yaxis.set_minor_formatter(ticker.NullFormatter())
                if row == 0 and panels != "_panel":
                    ax.set_title("%s" % (pv,))
                if row == nrows - 1:
                    ax.set_xlabel(xlabel or METRIC_LABELS.get(x, x))
                if col == 0:
                    ax.set_ylabel(ylabels.get(m, METRIC_LABELS.get(m, m)))
                ax.grid(True, which="both", linewidth=0.3)
        fig.legend(list(handles.values()), list(handles), loc="center right", frameon=False,
                   title=legend_title if legend_title is not None else ", ".join(bys))
        if title:
            fig.suptitle(title)
        right = 1 - min(0.45, 1.9 / fig.get_figwidth())
        fig.tight_layout(rect=(0, 0, right, 0.95 if title else 1))
        if out:
            save(fig, out, dpi=dpi)
    return fig


def save(fig, out, dpi=120):
    """Write a figure (the format from the suffix) with no date or version in the file: the
    same data gives the same bytes. Returns out."""
    import os
    directory = os.path.dirname(out)
    if directory:
        os.makedirs(directory, exist_ok=True)
    meta = {".png": {"Software": None},
            ".pdf": {"Creator": None, "Producer": None, "CreationDate": None}}
    fig.savefig(out, dpi=dpi, metadata=meta.get(os.path.splitext(out)[1]))
    return out


def fairness_table(df, by="routing", metrics=("fairness.min_injected_load", "fairness.max_min",
                                              "fairness.cov", "load.accepted"),
                   fmt=None):
    """The fairness figures of the runs, averaged over the seeds, one row per value of `by`
    (any column or list of columns; add "pattern", "traffic.load" to compare several points).
    Returns a data frame with METRIC and METRIC.ci95 columns and `seeds`; fmt="markdown" returns
    the table as Markdown text instead (mean ± ci95).

        >>> print(dfsim.fairness_table(df[df["pattern"] == "ADVc"], fmt="markdown"))
    """
    bys = [by] if isinstance(by, str) else list(by)
    table = frames.summarize(df, bys, list(metrics))
    order = sorted(range(len(table)), key=lambda i: _sort_value(
        tuple(table.iloc[i][b] for b in bys)))
    table = table.iloc[order].reset_index(drop=True)
    if fmt is None:
        return table
    if fmt != "markdown":
        raise ValueError("fmt: None or \"markdown\"")

    def cell(mean, ci):
        if mean is None or (isinstance(mean, float) and math.isnan(mean)):
            return "-"
        return "%.3f" % mean + (" ± %.3f" % ci if ci else "")
    lines = ["| " + " | ".join(bys + list(metrics) + ["seeds"]) + " |",
             "|" + "---|" * (len(bys) + len(metrics) + 1)]
    for _, r in table.iterrows():
        lines.append("| " + " | ".join(["%s" % r[b] for b in bys] +
                                       [cell(r[m], r[m + ".ci95"]) for m in metrics] +
                                       ["%d" % r["seeds"]]) + " |")
    return "\n".join(lines) + "\n"
