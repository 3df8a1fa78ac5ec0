#!/bin/sh
# fuzz: runs the libFuzzer harness of the config loader (build/fuzz/fuzz_config) for SECONDS
# (default 60) from the seed corpus tests/fuzz/corpus and the fixed crashes of
# tests/fuzz/regressions. New interesting inputs go to build/fuzz/corpus (kept between runs),
# a crashing, leaking or hanging input to build/fuzz/artifacts/. Called by `make fuzz`.
# Usage: sh tools/fuzz.sh [SECONDS]

seconds=${1:-60}
bin=build/fuzz/fuzz_config
out=build/fuzz
log=$out/fuzz.log

if [ ! -x "$bin" ]; then
    echo "fuzz: $bin is missing: run 'make fuzz' (needs clang and libclang-rt-14-dev)" >&2
    exit 1
fi
mkdir -p "$out/corpus" "$out/artifacts"

echo "fuzz: config loader and --set for ${seconds}s (log: $log)"
# -timeout: an input taking 10 s is a hang; -rss_limit_mb: one that needs 2 GiB is a leak or
# a runaway allocation. -use_value_profile helps find the exact names and limits.
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=16384 \
    -use_value_profile=1 -dict=tests/fuzz/config.dict -print_final_stats=1 \
    -artifact_prefix="$out/artifacts/" \
    "$out/corpus" tests/fuzz/corpus tests/fuzz/regressions >"$log" 2>&1
status=$?

runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
cov=$(grep -E '^#[0-9]+' "$log" | tail -n 1 | sed -n 's/.*cov: \([0-9]*\).*/\1/p')
found=$(find "$out/corpus" -type f | wc -l)
if [ "$status" -ne 0 ]; then
    grep -E 'ERROR|fuzz_config:|SUMMARY|artifact' "$log" | head -n 20 >&2
    echo "fuzz: FAILED after ${runs:-?} executions: the input is in $out/artifacts/." >&2
    echo "fuzz: fix the bug, copy the input to tests/fuzz/regressions/ (replayed by" >&2
    echo "      './dfsim-test fuzz'), then run make fuzz again." >&2
    exit 1
fi
echo "fuzz: ok: ${runs:-?} executions in ${seconds}s (${speed:-?}/s), coverage ${cov:-?} edges," \
    "$found inputs in $out/corpus"
