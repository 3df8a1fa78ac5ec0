#!/bin/sh
# figures.sh: run the reference study's sweeps (conf/sweeps/*.cfg) and draw its figures.
#   sh plots/figures.sh           the reference network (h=6, plus h=8 and h=10): hours
#   sh plots/figures.sh --quick   the h=3 twins of the same sweeps: a few minutes
# Sweeps are resumable: finished points are kept, so an interrupted run picks up where it stopped.
# Environment: DFSIM (./dfsim), PYTHON (/usr/bin/python3), JOBS (all cores), SWEEPS_DIR
# (results: sweep NAME in results/NAME, as `dfsim sweep` does by default), FIGURES_DIR
# (plots/out, or plots/out/quick with --quick).
set -eu

DFSIM=${DFSIM:-./dfsim}
PYTHON=${PYTHON:-/usr/bin/python3}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 1)}
SWEEPS_DIR=${SWEEPS_DIR:-results}
PRE=
OUT_DEFAULT=plots/out
if [ "${1:-}" = "--quick" ]; then
    PRE=quick_
    OUT_DEFAULT=plots/out/quick
elif [ $# -gt 0 ]; then
    echo "usage: sh plots/figures.sh [--quick]" >&2
    exit 2
fi
OUT=${FIGURES_DIR:-$OUT_DEFAULT}
if [ -n "$PRE" ]; then
    SIZES="2 4"      # plus h=3 from quick_injection
else
    SIZES="8 10"     # plus h=6 from injection
fi

SETTINGS="rr_tp:RR+TP rr:RR age:Age"
start=$(date +%s)

sweep() {
    echo "== sweep $1" >&2
    "$DFSIM" sweep "conf/sweeps/$1.cfg" --jobs "$JOBS" -o "$SWEEPS_DIR/$1"
}

for s in $SETTINGS; do
    sweep "${PRE}load_${s%%:*}"
done
sweep "${PRE}injection"
for h in $SIZES; do
    sweep "${PRE}scaling_h$h"
done
# The Dragonfly+ interference study (quick: the small twin, ~20 minutes on one core; full: the
# 3,456-node system, ~3 core-hours: 2.7 measured for its 192 points, see results/dfplus_interference/README.md).
sweep "${PRE}dfplus_interference"

echo "== figures into $OUT" >&2
mkdir -p "$OUT"
py() { "$PYTHON" "$@" >/dev/null; }
for s in $SETTINGS; do
    tag=${s%%:*}
    py plots/plot_load.py "$SWEEPS_DIR/${PRE}load_$tag" -o "$OUT/load_$tag.png" --pdf
done
# The latency breakdown of every routing, round robin with transit priority.
for v in MIN VAL Obl-CRG Obl-RRG PB-CRG PB-RRG IT-CRG IT-RRG IT-MM; do
    py plots/plot_breakdown.py "$SWEEPS_DIR/${PRE}load_rr_tp" --variant "$v" \
        -o "$OUT/breakdown_$v.png" --pdf
done
py plots/plot_injection.py "$SWEEPS_DIR/${PRE}injection" -o "$OUT/injection.png" --pdf
"$PYTHON" plots/table_fairness.py "$SWEEPS_DIR/${PRE}load_rr_tp" "$SWEEPS_DIR/${PRE}load_rr" \
    "$SWEEPS_DIR/${PRE}load_age" --loads 0.2 0.4 -o "$OUT/fairness.md" >/dev/null
scaling_dirs="$SWEEPS_DIR/${PRE}injection"
for h in $SIZES; do
    scaling_dirs="$scaling_dirs $SWEEPS_DIR/${PRE}scaling_h$h"
done
for s in $SETTINGS; do
    # shellcheck disable=SC2086  # several directories
    py plots/plot_scaling.py $scaling_dirs --setting "${s#*:}" -o "$OUT/scaling_${s%%:*}.png" --pdf
done
# Per target pattern: message-latency boxes by placement and background load, and the slowdown
# of the mean message latency over the same point without background (bg load 0).
for fam in UN tornado halo3d bcast; do
    py plots/plot_jobs.py "$SWEEPS_DIR/${PRE}dfplus_interference" --job app --kind latency \
        --variants "$fam-*" -o "$OUT/dfplus_latency_$fam.png" --pdf
    py plots/plot_jobs.py "$SWEEPS_DIR/${PRE}dfplus_interference" --job app --kind slowdown \
        --baseline jobs.bg.load=0 --variants "$fam-*" -o "$OUT/dfplus_slowdown_$fam.png" --pdf
done
"$PYTHON" plots/table_jobs.py "$SWEEPS_DIR/${PRE}dfplus_interference" --job app \
    --baseline jobs.bg.load=0 -o "$OUT/dfplus_interference.md" >/dev/null
# ... and what the background gets, per app placement and traffic (interference runs both ways).
"$PYTHON" plots/table_jobs.py "$SWEEPS_DIR/${PRE}dfplus_interference" --job bg \
    --baseline jobs.bg.load=0 --served -o "$OUT/dfplus_background.md" >/dev/null
echo "== done in $(( $(date +%s) - start )) s: $(ls "$OUT" | wc -l) files in $OUT" >&2
