#!/bin/sh
# trace_study: a recorded application replayed as a trace job beside its motif (results/traces/).
# Records a halo3d motif (32 ranks, 8 KiB faces, 4 iterations of 2,000 compute cycles) alone on
# the Dragonfly+ system of conf/dragonfly_plus_small.cfg with --trace-out, then runs the motif
# and its replay on that system and on the Aries cascade of conf/aries_small.cfg, with
# contiguous and random placement, each beside a uniform background on the other nodes
# (load BG_LOAD, default 0.8, 512-byte messages) and alone (--isolate): 8 runs of two
# simulations each.
# Documents go to results/traces/ (ignored), the table to stdout.
#
#   sh tools/trace_study.sh        (about a minute on one core)
set -e
BG_LOAD=${BG_LOAD:-0.8}
out=results/traces
DFSIM=${DFSIM:-./dfsim}
[ -x "$DFSIM" ] || { echo "trace_study: $DFSIM not built (run make)" >&2; exit 1; }
mkdir -p "$out/cfg"
rm -rf "$out/recorded"
here=$PWD

app_motif='name = "app"; nodes = 32; motif = "halo3d"; message_bytes = 8192; iterations = 4;
      compute_cycles = 2000;'
app_trace='name = "app"; nodes = 32; trace = "../recorded/app/traces.otf2";'

cat >"$out/cfg/record.cfg" <<CFG
@include "$here/conf/dragonfly_plus_small.cfg"
sim = { warmup_cycles = 2000; };
jobs = ( { $app_motif } );
CFG
nice -n 19 "$DFSIM" run "$out/cfg/record.cfg" --quiet --trace-out "$out/recorded" \
    -o "$out/record.json" >/dev/null

for system in dragonfly_plus_small:120 aries_small:80; do
    name=${system%:*}
    nodes=${system#*:}
    for placement in contiguous random_nodes; do
        for kind in motif trace; do
            eval "app=\$app_$kind"
            cfg="$out/cfg/${name}_${placement}_$kind.cfg"
            cat >"$cfg" <<CFG
@include "$here/conf/$name.cfg"
sim = { warmup_cycles = 2000; };
jobs = (
    { $app placement = "$placement"; },
    { name = "bg"; nodes = $((nodes - 32)); placement = "$placement"; pattern = "uniform";
      load = $BG_LOAD; message_bytes = 512; }
);
CFG
            nice -n 19 "$DFSIM" run "$cfg" --quiet --isolate \
                -o "$out/${name}_${placement}_$kind.json" >/dev/null
        done
    done
done

/usr/bin/python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
print("| system | placement | job | runtime alone | runtime with background | slowdown | "
      "message latency median alone / with | wall s |")
print("|---|---|---|---|---|---|---|---|")
for system in ("dragonfly_plus_small", "aries_small"):
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
