#!/bin/sh
# fuzz: runs a libFuzzer harness (build/fuzz/fuzz_TARGET) from its seed corpus and fixed
# crashes: TARGET config (the config loader and --set: tests/fuzz/corpus, regressions), run
# (short runs of the small configs accepted, invariants checked: tests/fuzz/corpus,
# regressions_run) or sweep (the sweep loader and grid expansion: tests/fuzz/corpus_sweep,
# regressions_sweep) or trace (the trace reader and replay, a file of the coverage trace replaced
# by the input: tests/fuzz/corpus_trace).
#
#   sh tools/fuzz.sh explore TARGET SECONDS   (make fuzz) a random seed for SECONDS; new
#                                             interesting inputs go to build/fuzz/TARGET/corpus,
#                                             kept between runs
#   sh tools/fuzz.sh check TARGET RUNS SEED   (make test-fuzz) exactly RUNS inputs from seed
#                                             SEED and the repository's corpus only: the same
#                                             search on every machine whatever its speed or
#                                             local corpus (libFuzzer steers by observed
#                                             coverage, so runs still differ by a few inputs)
#
# A crashing, leaking or hanging input goes to build/fuzz/artifacts/TARGET-*. The known leak of
# libconfig 1.5 is suppressed by tools/lsan.supp (by library file name: no symbolizer needed).

usage() {
    echo "usage: sh tools/fuzz.sh explore config|run|sweep|trace [SECONDS]" >&2
    echo "       sh tools/fuzz.sh check config|run|sweep|trace [RUNS] [SEED]" >&2
    exit 2
}

mode=${1:-explore}
target=${2:-config}
case $target in
config) seeds="tests/fuzz/corpus tests/fuzz/regressions" ;;
run) seeds="tests/fuzz/corpus tests/fuzz/regressions_run" ;;
sweep) seeds="tests/fuzz/corpus_sweep tests/fuzz/regressions_sweep" ;;
trace) seeds="tests/fuzz/corpus_trace" ;;
*) usage ;;
esac
bin=build/fuzz/fuzz_$target
out=build/fuzz
log=$out/$target.log

if [ ! -x "$bin" ]; then
    echo "fuzz: $bin is missing: run 'make fuzz' (needs clang and libclang-rt-14-dev)" >&2
    exit 1
fi
supp=$PWD/tools/lsan.supp
if [ ! -r "$supp" ]; then
    echo "fuzz: $supp is missing: run this from the repository root" >&2
    exit 1
fi
mkdir -p "$out/$target/corpus" "$out/artifacts"

case $mode in
explore)
    seconds=${3:-60}
    corpus=$out/$target/corpus
    budget="-max_total_time=$seconds"
    what="for ${seconds}s"
    ;;
check)
    runs=${3:-40000}
    seed=${4:-1}
    corpus=$out/$target/check-corpus # starts empty: the inputs depend on the repository alone
    rm -rf "$corpus"
    mkdir -p "$corpus"
    budget="-runs=$runs -seed=$seed"
    what="$runs inputs from seed $seed"
    ;;
*)
    usage
    ;;
esac

echo "fuzz: $target, $what (log: $log)"
start=$(date +%s)
# -timeout: an input taking 10 s is a hang; -rss_limit_mb: one that needs 2 GiB is a leak or
# a runaway allocation. -use_value_profile helps find the exact names and limits.
# shellcheck disable=SC2086 # $budget is two options, $seeds two directories
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    LSAN_OPTIONS="suppressions=$supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}" \
    "$bin" $budget -timeout=10 -rss_limit_mb=2048 -max_len=16384 \
    -use_value_profile=1 -dict=tests/fuzz/config.dict -print_final_stats=1 \
    -artifact_prefix="$out/artifacts/$target-" \
    "$corpus" $seeds </dev/null >"$log" 2>&1
status=$?
elapsed=$(($(date +%s) - start))

runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
cov=$(grep -E '^#[0-9]+' "$log" | tail -n 1 | sed -n 's/.*cov: \([0-9]*\).*/\1/p')
found=$(find "$corpus" -type f | wc -l)
if [ "$status" -ne 0 ] && [ -z "$runs" ] && ! grep -q 'Test unit written' "$log"; then
    tail -n 20 "$log" >&2
    echo "fuzz: FAILED before fuzzing (exit $status): see the lines above, or $log" >&2
    exit 1
fi
if [ "$status" -ne 0 ]; then
    grep -E 'ERROR|fuzz_(config|run|sweep):|SUMMARY|artifact' "$log" | head -n 20 >&2
    echo "fuzz: FAILED after ${runs:-?} executions: the input is in $out/artifacts/." >&2
    if ! command -v llvm-symbolizer >/dev/null 2>&1 && [ ! -x /usr/bin/llvm-symbolizer-14 ]; then
        echo "fuzz: (no llvm-symbolizer here, so the stacks in $log have no function names:" >&2
        echo "      install llvm-14, or replay the input with ./dfsim-test fuzz as below)" >&2
    fi
    echo "fuzz: fix the bug, copy the input to ${seeds#* }/ (replayed by" >&2
    echo "      './dfsim-test fuzz'), then run make fuzz again." >&2
    exit 1
fi
echo "fuzz: ok: ${runs:-?} executions in ${elapsed}s (${speed:-?}/s), coverage ${cov:-?} edges," \
    "$found inputs in $corpus"
