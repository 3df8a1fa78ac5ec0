#!/bin/sh
# bench: speed of the reference network (`make bench`, not part of the tests). Runs each
# benchmark below with ./dfsim and prints wall seconds, simulated cycles/s, router-cycles/s
# and peak memory.
#
# To add a benchmark, add a line "name|settings" to BENCHMARKS: settings are KEY=VALUE pairs
# separated by spaces (no spaces inside a value), applied with --set after COMMON.
CONFIG=conf/paper_h6.cfg
COMMON="sim.warmup_cycles=10000 sim.measure_cycles=15000"
BENCHMARKS='
un_min_0.4|traffic.pattern=uniform traffic.load=0.4 routing.mechanism=min
advc_min_0.4|traffic.pattern=adversarial_consecutive traffic.load=0.4 routing.mechanism=min
'

DFSIM=./dfsim
[ -x "$DFSIM" ] || { echo "bench: $DFSIM not built (run make)" >&2; exit 1; }
[ -r "$CONFIG" ] || { echo "bench: $CONFIG not found" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dfsim-bench.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

# run_measured RSS_FILE COMMAND...: runs COMMAND and writes its peak memory to RSS_FILE as
# /usr/bin/time -v does ("Maximum resident set size (kbytes): N"), through getrusage when
# /usr/bin/time is not installed.
run_measured() {
    rss_file=$1
    shift
    if [ -x /usr/bin/time ]; then
        /usr/bin/time -v -o "$rss_file" "$@"
    else
        /usr/bin/python3 -c '
import resource, subprocess, sys
rc = subprocess.call(sys.argv[2:])
kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
with open(sys.argv[1], "w") as f:
    print("\tMaximum resident set size (kbytes): %d" % kib, file=f)
sys.exit(rc)' "$rss_file" "$@"
    fi
}

# timing_of JSON: "wall cycles_per_second router_cycles_per_second" from the "timing" object.
timing_of() {
    /usr/bin/python3 -c '
import json, sys
t = json.load(open(sys.argv[1]))["timing"]
print("%.2f %.0f %.0f" % (t["wall_seconds"], t["cycles_per_second"],
                          t["router_cycles_per_second"]))' "$1"
}

peak_mib_of() {
    awk -F': *' '/Maximum resident set size/ { printf "%.1f", $2 / 1024 }' "$1"
}

row() {
    printf '%-16s %10s %14s %18s %10s\n' "$@"
}

status=0
row benchmark "wall s" "cycles/s" "router-cycles/s" "peak MiB"
echo "$BENCHMARKS" | while IFS='|' read -r name settings; do
    [ -n "$name" ] || continue
    set --
    for kv in $COMMON $settings; do
        set -- "$@" --set "$kv"
    done
    if ! run_measured "$tmp/$name.rss" "$DFSIM" run "$CONFIG" --quiet -o "$tmp/$name.json" \
        "$@" >"$tmp/$name.log" 2>&1; then
        row "$name" FAILED - - -
        sed 's/^/    /' "$tmp/$name.log" >&2
        echo failed >"$tmp/failed"
        continue
    fi
    # shellcheck disable=SC2046 # three numbers, split on purpose
    set -- $(timing_of "$tmp/$name.json")
    row "$name" "$1" "$2" "$3" "$(peak_mib_of "$tmp/$name.rss")"
done
[ -e "$tmp/failed" ] && status=1
exit $status
