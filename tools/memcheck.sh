#!/bin/sh
# memcheck: runs the end-to-end cases of dfsim under valgrind memcheck: short runs of several
# routings (with --check and --fairness), info, an interrupted run and bad input of every kind.
# Each must end with its expected exit status, no memory error and no leak (definite,
# indirect, possible or still reachable). Called by `make memcheck`; needs ./dfsim and valgrind.

if ! command -v valgrind >/dev/null 2>&1; then
    echo "memcheck: valgrind is missing (apt-get install valgrind)" >&2
    exit 1
fi
tmp=$(mktemp -d /tmp/dfsim-memcheck-XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
VG="valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=all
    --errors-for-leak-kinds=all --suppressions=tools/valgrind.supp"
FAST="--quiet --set sim.warmup_cycles=200 --set sim.measure_cycles=800"
failed=0
cases=0

# check STATUS ARGS...: runs ./dfsim ARGS under valgrind and expects exit STATUS.
check() {
    want=$1
    shift
    cases=$((cases + 1))
    # $VG is a list of words: split on purpose.
    # shellcheck disable=SC2086
    $VG ./dfsim "$@" >"$tmp/out" 2>&1 </dev/null
    got=$?
    if [ "$got" -ne "$want" ]; then
        failed=$((failed + 1))
        echo "memcheck: FAILED (exit $got, expected $want): dfsim $*"
        sed 's/^/    /' "$tmp/out" | head -n 40
    fi
}

printf 'traffic = {\n    lod = 0.3;\n};\n' >"$tmp/unknown.cfg"
printf 'sim = { seed = ; };\n' >"$tmp/syntax.cfg"
printf 'a "x";\n' >"$tmp/leaky_syntax.cfg"
printf 'previous\n' >"$tmp/kept.json"
printf 'traffic = { load = 0.2; };\n' >"$tmp/included.cfg"
printf '@include "included.cfg"\nsim = { seed = 5; };\n' >"$tmp/includes.cfg"
printf 'sim = { seed = 5; };\n@include "includes.cfg"\n@include ""\n' >"$tmp/include_dir.cfg"
# includes absolute or relative to their own file's folder, expanded by dfsim
mkdir -p "$tmp/nest/sub"
printf '@include "sub/outer.cfg"\n@include "%s/included.cfg"\n' "$tmp" >"$tmp/nest/top.cfg"
printf '@include "inner.cfg"\n' >"$tmp/nest/sub/outer.cfg"
printf 'sim = { seed = 6; }; // no newline' >"$tmp/nest/sub/inner.cfg"
printf '@include "../cycle.cfg"\n' >"$tmp/nest/sub/cycle.cfg"
printf '@include "sub/cycle.cfg"\n' >"$tmp/nest/cycle.cfg"
printf '@include "nest/sub/inner.cfg"\ntraffic = { load = ; };\n' >"$tmp/include_syntax.cfg"

# runs that succeed
check 0 run conf/default.cfg -o "$tmp/a.json" $FAST
check 0 run conf/default.cfg -o "$tmp/b.json" $FAST --check --fairness \
    --set routing.mechanism=in_transit --set routing.global_policy=nrg \
    --set traffic.pattern=adversarial --set traffic.load=0.8
check 0 run conf/default.cfg -o "$tmp/c.json" $FAST --set routing.mechanism=valiant \
    --set routing.valiant_target=router --set traffic.pattern=adversarial_consecutive
check 0 run conf/default.cfg -o "$tmp/d.json" $FAST --set routing.mechanism=piggyback \
    --set router.arbiter=age --set router.transit_priority=true --set traffic.load=1
check 0 run conf/default.cfg -o "$tmp/e.json" $FAST --set routing.mechanism=oblivious \
    --set routing.global_policy=crg --set traffic.pattern=permutation
check 0 info conf/default.cfg
check 0 info "$tmp/includes.cfg"
check 0 info "$tmp/nest/top.cfg"
check 0 info conf/paper_h6.cfg --set traffic.pattern=adversarial
check 0 --help
check 0 --version
# bad input and failing outputs
check 2
check 2 frobnicate
check 2 run
check 2 run conf/missing.cfg
check 2 run "$tmp/unknown.cfg"
check 2 run "$tmp/syntax.cfg"
check 2 run "$tmp/leaky_syntax.cfg"
check 2 info /dev/zero
check 2 info "$tmp/include_dir.cfg"
check 2 info "$tmp/nest/cycle.cfg"
check 2 info "$tmp/include_syntax.cfg"
check 2 run conf/default.cfg --set traffic.load=2
check 2 run conf/default.cfg --set foo
check 2 run conf/default.cfg --set routing.mechanism=oblivious --set routing.global_policy=nrg
check 2 run conf/default.cfg --check-every 0
check 1 run conf/default.cfg -o /dev/full $FAST
check 1 run conf/default.cfg -o "$tmp" $FAST
check 1 run conf/default.cfg -o /nonexistent-dir/x.json $FAST

# an interrupted run: exit 130, everything freed, the previous result kept
cases=$((cases + 1))
# shellcheck disable=SC2086
timeout --preserve-status -s INT 8 $VG ./dfsim run conf/default.cfg -o "$tmp/kept.json" --quiet \
    --set sim.measure_cycles=100000000 >"$tmp/out" 2>&1
got=$?
if [ "$got" -ne 130 ] || [ "$(cat "$tmp/kept.json")" != previous ]; then
    failed=$((failed + 1))
    echo "memcheck: FAILED (exit $got, expected 130 and the previous result): interrupted run"
    sed 's/^/    /' "$tmp/out" | head -n 40
fi

if [ "$failed" -ne 0 ]; then
    echo "memcheck: $failed of $cases cases failed"
    exit 1
fi
echo "memcheck: ok: $cases cases, no memory error, no leak"
