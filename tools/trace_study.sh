#!/bin/sh
# trace_study: a recorded application replayed as a trace job beside its motif (results/traces/).
# Records a halo3d motif (8 KiB faces, 4 iterations of 2,000 compute cycles) alone on a
# Dragonfly+ system with --trace-out, then runs the motif and its replay on that system and on
# an Aries cascade, with contiguous and random placement, each beside a uniform background on
# the other nodes (load BG_LOAD, default 0.8, 512-byte messages) and alone (--isolate): 8 runs
# of two simulations each, the motif's and the trace's at the same time. SIZE selects the systems and the application's ranks:
#   small (default)  conf/dragonfly_plus_small.cfg (120 nodes) and conf/aries_small.cfg (80),
#                    32 ranks; documents in results/traces/ (about a minute on one core)
#   full             conf/dragonfly_plus_3456.cfg (3,456 nodes) and conf/aries.cfg (2,304),
#                    256 ranks; documents in results/traces/full/ (about 10 minutes)
# Documents are ignored by git; the table goes to stdout.
#
#   sh tools/trace_study.sh            SIZE=full sh tools/trace_study.sh
set -e
BG_LOAD=${BG_LOAD:-0.8}
SIZE=${SIZE:-small}
case "$SIZE" in
small)
    out=results/traces
    systems="dragonfly_plus_small:120 aries_small:80"
    ranks=32
    ;;
full)
    out=results/traces/full
    systems="dragonfly_plus_3456:3456 aries:2304"
    ranks=256
    ;;
*)
    echo "trace_study: SIZE is small or full, not '$SIZE'" >&2
    exit 2
    ;;
esac
DFSIM=${DFSIM:-./dfsim}
[ -x "$DFSIM" ] || { echo "trace_study: $DFSIM not built (run make)" >&2; exit 1; }
mkdir -p "$out/cfg"
rm -rf "$out/recorded"
here=$PWD
recorder=${systems%%:*}
started=$(date +%s)

app_motif="name = \"app\"; nodes = $ranks; motif = \"halo3d\"; message_bytes = 8192;
      iterations = 4; compute_cycles = 2000;"
app_trace="name = \"app\"; nodes = $ranks; trace = \"../recorded/app/traces.otf2\";"

cat >"$out/cfg/record.cfg" <<CFG
@include "$here/conf/$recorder.cfg"
sim = { warmup_cycles = 2000; };
jobs = ( { $app_motif } );
CFG
nice -n 19 "$DFSIM" run "$out/cfg/record.cfg" --quiet --trace-out "$out/recorded" \
    -o "$out/record.json" >/dev/null

# One run: the application (motif or trace) beside the background, and alone.
study_run() {
    eval "app=\$app_$kind"
    cfg="$out/cfg/${name}_${placement}_$kind.cfg"
    cat >"$cfg" <<CFG
@include "$here/conf/$name.cfg"
sim = { warmup_cycles = 2000; };
jobs = (
    { $app placement = "$placement"; },
    { name = "bg"; nodes = $((nodes - ranks)); placement = "$placement"; pattern = "uniform";
      load = $BG_LOAD; message_bytes = 512; }
);
CFG
    nice -n 19 "$DFSIM" run "$cfg" --quiet --isolate \
        -o "$out/${name}_${placement}_$kind.json" >/dev/null
}

# The motif and its trace side by side: two runs at a time.
for system in $systems; do
    name=${system%:*}
    nodes=${system#*:}
    for placement in contiguous random_nodes; do
        kind=motif study_run &
        motif=$!
        kind=trace study_run &
        trace=$!
        wait $motif
        wait $trace
    done
done

/usr/bin/python3 - "$out" $systems <<'PY'
import json, sys
out = sys.argv[1]
print("| system | placement | job | runtime alone | runtime with background | slowdown | "
      "message latency median alone / with | wall s |")
print("|---|---|---|---|---|---|---|---|")
for system in sys.argv[2:]:
    system = system.split(":")[0]
    for placement in ("contiguous", "random_nodes"):
        for kind in ("motif", "trace"):
            d = json.load(open("%s/%s_%s_%s.json" % (out, system, placement, kind)))
            j = d["jobs"][0]
            print("| %s | %s | %s | %d | %d | %.3f | %d / %d | %.1f |" % (
                system, placement, "halo3d motif" if kind == "motif" else "its trace",
                j["alone"]["runtime_cycles"], j["runtime_cycles"], j["slowdown"]["runtime"],
                j["alone"]["message_latency"]["median"], j["messages"]["latency"]["median"],
                d["timing"]["wall_seconds"]))
PY
echo "whole study: $(($(date +%s) - started)) s wall"
