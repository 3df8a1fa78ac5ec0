#!/bin/sh
# fuzz: runs the libFuzzer harness of the config loader (build/fuzz/fuzz_config) from the seed
# corpus tests/fuzz/corpus and the fixed crashes of tests/fuzz/regressions.
#
#   sh tools/fuzz.sh explore SECONDS   (make fuzz) a random seed for SECONDS; new interesting
#                                      inputs go to build/fuzz/corpus, kept between runs
#   sh tools/fuzz.sh check RUNS SEED   (make test-fuzz) exactly RUNS inputs from seed SEED and
#                                      the repository's corpus only: the same search on every
#                                      machine whatever its speed or local corpus (libFuzzer
#                                      steers by observed coverage, so runs still differ by a
#                                      few inputs)
#
# A crashing, leaking or hanging input goes to build/fuzz/artifacts/.

mode=${1:-explore}
bin=build/fuzz/fuzz_config
out=build/fuzz
log=$out/fuzz.log

if [ ! -x "$bin" ]; then
    echo "fuzz: $bin is missing: run 'make fuzz' (needs clang and libclang-rt-14-dev)" >&2
    exit 1
fi
mkdir -p "$out/corpus" "$out/artifacts"

case $mode in
explore)
    seconds=${2:-60}
    corpus=$out/corpus
    budget="-max_total_time=$seconds"
    what="for ${seconds}s"
    ;;
check)
    runs=${2:-40000}
    seed=${3:-1}
    corpus=$out/check-corpus # starts empty: the inputs depend on the repository alone
    rm -rf "$corpus"
    mkdir -p "$corpus"
    budget="-runs=$runs -seed=$seed"
    what="$runs inputs from seed $seed"
    ;;
*)
    echo "usage: sh tools/fuzz.sh explore [SECONDS] | check [RUNS] [SEED]" >&2
    exit 2
    ;;
esac

echo "fuzz: config loader and --set, $what (log: $log)"
start=$(date +%s)
# -timeout: an input taking 10 s is a hang; -rss_limit_mb: one that needs 2 GiB is a leak or
# a runaway allocation. -use_value_profile helps find the exact names and limits.
# shellcheck disable=SC2086 # $budget is two options
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    "$bin" $budget -timeout=10 -rss_limit_mb=2048 -max_len=16384 \
    -use_value_profile=1 -dict=tests/fuzz/config.dict -print_final_stats=1 \
    -artifact_prefix="$out/artifacts/" \
    "$corpus" tests/fuzz/corpus tests/fuzz/regressions >"$log" 2>&1
status=$?
elapsed=$(($(date +%s) - start))

runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
cov=$(grep -E '^#[0-9]+' "$log" | tail -n 1 | sed -n 's/.*cov: \([0-9]*\).*/\1/p')
found=$(find "$corpus" -type f | wc -l)
if [ "$status" -ne 0 ]; then
    grep -E 'ERROR|fuzz_config:|SUMMARY|artifact' "$log" | head -n 20 >&2
    echo "fuzz: FAILED after ${runs:-?} executions: the input is in $out/artifacts/." >&2
    echo "fuzz: fix the bug, copy the input to tests/fuzz/regressions/ (replayed by" >&2
    echo "      './dfsim-test fuzz'), then run make fuzz again." >&2
    exit 1
fi
echo "fuzz: ok: ${runs:-?} executions in ${elapsed}s (${speed:-?}/s), coverage ${cov:-?} edges," \
    "$found inputs in $corpus"
