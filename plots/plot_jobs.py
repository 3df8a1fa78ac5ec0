#!/usr/bin/python3
"""The field's figures for jobs that share a network, from the documents of a sweep over job
settings (conf/sweeps/interference.cfg):

  --kind latency   per-job message-latency box plots (min, Q1, median, Q3, max; the mean as a
                   dot) across the sweep's points, one panel per variant; with sim.isolate the
                   job's latencies alone come first
  --kind slowdown  the job's slowdown (runtime and mean message latency, each over the same job
                   run alone: sim.isolate) as bars, mean and 95% CI over the seeds

    plots/plot_jobs.py results/interference --job app --kind latency -o app_latency.png
    plots/plot_jobs.py results/interference --job app --kind slowdown -o app_slowdown.png

Points are labelled by the sweep's axes (sim.seed aside): the axis that names a placement
makes the series, the others the positions along the x axis.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import figure_common as fc  # noqa: E402  (sets the Agg backend first)
import dfsim_results as dr  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402

SERIES_COLORS = ["#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860"]


def job_of(record, name):
    """The job object called name in a record's document (ResultError if it has none)."""
    for job in record.doc.get("jobs", []):
        if job.get("name") == name:
            return job
    names = [j.get("name") for j in record.doc.get("jobs", [])]
    raise dr.ResultError("%s: no job '%s' (jobs: %s)" % (record.path, name,
                                                        ", ".join(names) or "none"))


def short_key(key):
    """'jobs.bg.load' -> 'bg load', 'routing.mechanism' -> 'mechanism'."""
    parts = key.split(".")
    return " ".join(parts[1:]) if parts[0] == "jobs" else parts[-1]


def axes_of(records):
    """(series axis or None, [x axes]): the sweep's axes but sim.seed; the placement axis (if
    any) makes the series."""
    keys = []
    for r in records:
        for k in r.point:
            if k != "sim.seed" and k not in keys:
                keys.append(k)
    series = next((k for k in keys if k.endswith(".placement")), None)
    return series, [k for k in keys if k != series]


def x_label(record, x_axes):
    return "\n".join("%s\n%s" % (short_key(k), fc.fmt_load(record.point[k])
                                  if isinstance(record.point[k], (int, float)) else record.point[k])
                     for k in x_axes if k in record.point)


def sort_value(v):
    return (0, v, "") if isinstance(v, (int, float)) else (1, 0, str(v))


def panels(records, job):
    """[(variant, [record...])] in variant order, each sorted by series then x."""
    by_variant = {}
    for r in records:
        job_of(r, job)
        by_variant.setdefault(r.sweep_variant or r.variant, []).append(r)
    series, x_axes = axes_of(records)

    def key(r):
        return ([sort_value(r.point.get(series))] if series else []) + \
               [sort_value(r.point.get(k)) for k in x_axes] + [sort_value(r.seed)]
    return [(v, sorted(rs, key=key)) for v, rs in
            sorted(by_variant.items(), key=lambda kv: dr.variant_sort_key(kv[0]))], series, x_axes


def spread_box(spread, label):
    """A matplotlib bxp() entry from a document's spread (min, q1, median, q3, max, mean)."""
    return {"label": label, "whislo": spread["min"], "q1": spread["q1"], "med": spread["median"],
            "q3": spread["q3"], "whishi": spread["max"], "mean": spread["mean"], "fliers": []}


def draw_latency(records, job, title):
    groups, series, x_axes = panels(records, job)
    first_seed = min(r.seed for r in records)
    seeds = len({r.seed for r in records})
    width = max(len([r for r in rs if r.seed == first_seed]) for _, rs in groups)
    fig, axes = plt.subplots(len(groups), 1, figsize=(max(6.0, 0.75 * width + 3), 3.4 * len(groups)),
                             squeeze=False)
    for ax, (variant, rs) in zip(axes[:, 0], groups):
        boxes, colors, series_values, positions = [], [], [], []
        at = 0.0
        for r in [r for r in rs if r.seed == first_seed]:
            j = job_of(r, job)
            s = r.point.get(series) if series else ""
            color_index = len(series_values)
            if s not in series_values:
                series_values.append(s)
                at += 0.5 if boxes else 0  # a gap between series
                if "alone" in j:  # the job alone opens its series
                    boxes.append(spread_box(j["alone"]["message_latency"], "alone"))
                    colors.append(SERIES_COLORS[color_index % len(SERIES_COLORS)])
                    positions.append(at)
                    at += 1
            color = SERIES_COLORS[series_values.index(s) % len(SERIES_COLORS)]
            boxes.append(spread_box(j["messages"]["latency"], x_label(r, x_axes)))
            colors.append(color)
            positions.append(at)
            at += 1
        art = ax.bxp(boxes, positions=positions, showmeans=True, patch_artist=True,
                     showfliers=False, medianprops={"color": "black"},
                     meanprops={"marker": "o", "markersize": 3, "markerfacecolor": "black",
                                "markeredgecolor": "black"})
        for patch, color in zip(art["boxes"], colors):
            patch.set_facecolor(color)
            patch.set_alpha(0.6)
        for i, s in enumerate(series_values):
            ax.plot([], [], "s", color=SERIES_COLORS[i % len(SERIES_COLORS)], alpha=0.6,
                    label="%s %s" % (short_key(series), s) if series else str(s))
        if series:
            ax.legend(loc="upper left")
        ax.set_title("%s: job %s" % (variant, job))
        ax.set_ylabel("message latency (cycles)")
        ax.tick_params(axis="x", labelsize=7)
        ax.set_ylim(bottom=0)
        ax.grid(True, axis="y", alpha=0.3)
    fig.suptitle(title or "Message latency of job %s (box Q1-Q3, line median, whiskers min-max, "
                 "dot mean)%s" % (job, "; seed %s of %d" % (first_seed, seeds) if seeds > 1
                                  else ""))
    fig.tight_layout()
    return fig


def draw_slowdown(records, job, title):
    groups, series, x_axes = panels(records, job)
    fig, axes = plt.subplots(len(groups), 2, figsize=(11, 3.2 * len(groups)), squeeze=False)
    measures = [("runtime", "runtime slowdown"), ("message_latency", "message latency slowdown")]
    for row, (variant, rs) in zip(axes, groups):
        if not any("slowdown" in job_of(r, job) for r in rs):
            raise dr.ResultError("job %s has no slowdown in %s: run the sweep with "
                                 "sim.isolate = true" % (job, variant))
        series_values, xs = [], []
        for r in rs:
            s = r.point.get(series) if series else ""
            if s not in series_values:
                series_values.append(s)
            x = x_label(r, x_axes)
            if x not in xs:
                xs.append(x)
        width = 0.8 / max(1, len(series_values))
        for ax, (key, label) in zip(row, measures):
            for i, s in enumerate(series_values):
                means, cis = [], []
                for x in xs:
                    values = [job_of(r, job)["slowdown"][key] for r in rs
                              if (not series or r.point.get(series) == s) and x_label(r, x_axes) == x
                              and job_of(r, job).get("slowdown", {}).get(key) is not None]
                    stat = dr.mean_ci(values)
                    means.append(stat.mean if stat.mean is not None else 0)
                    cis.append(stat.ci95 or 0)
                positions = [k + (i - (len(series_values) - 1) / 2) * width for k in range(len(xs))]
                ax.bar(positions, means, width, yerr=cis, capsize=2,
                       color=SERIES_COLORS[i % len(SERIES_COLORS)], alpha=0.8,
                       label="%s %s" % (short_key(series), s) if series else None)
            ax.axhline(1.0, color="black", linewidth=0.8)
            ax.set_xticks(range(len(xs)))
            ax.set_xticklabels(xs, fontsize=7)
            ax.set_title("%s: job %s, %s" % (variant, job, label))
            ax.set_ylabel("x alone")
            ax.grid(True, axis="y", alpha=0.3)
            if series:
                ax.legend(loc="upper left")
    fig.suptitle(title or "Slowdown of job %s over the same job alone (mean and 95%% CI over "
                 "seeds)" % job)
    fig.tight_layout()
    return fig


def main(argv=None):
    p = fc.base_parser(__doc__, "jobs.png")
    p.add_argument("--job", required=True, help="the job to show (its name in the config)")
    p.add_argument("--kind", choices=["latency", "slowdown"], default="latency",
                   help="message-latency box plots (default) or slowdown bars")
    args = p.parse_args(argv)
    records = [r for r in dr.load_records(args.inputs) if "jobs" in r.doc]
    if not records:
        raise dr.ResultError("no documents with jobs in %s" % ", ".join(args.inputs))
    draw = draw_latency if args.kind == "latency" else draw_slowdown
    fig = draw(records, args.job, args.title)
    return fc.save_figure(fig, args.output, args.pdf)


if __name__ == "__main__":
    sys.exit(fc.run_main(main))
