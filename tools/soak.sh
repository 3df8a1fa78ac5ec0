#!/bin/sh
# soak: runs every routing mechanism at saturation (offered load 1.0) for CYCLES cycles
# (default 10^6) on the h=3 network (p=3 a=6 h=3: 114 routers, 342 nodes) with the invariant
# check of `dfsim run --check` on every CHECK_EVERY-th cycle (default 1: every cycle), and
# reports whether the invariants and the deadlock watchdog held. Called by `make soak`.
# Usage: sh tools/soak.sh [CYCLES [CHECK_EVERY]]
# Environment: SOAK_PATTERNS (default "adversarial": ADV+1 drives every nonminimal and
# misrouting path), SOAK_JOBS (parallel runs, default: the number of CPUs), SOAK_NICE (10),
# SOAK_DIR (logs and results, default build/soak), SOAK_ONLY (names of the variants to run,
# e.g. "min in_transit_mm"; default all).
# Checking every cycle costs 0.3-0.7 ms per cycle on this network at saturation (the
# injection queues hold ~10^5 packets): 5-12 minutes per mechanism, about an hour for the 11
# on 2 idle cores; make soak SOAK_CHECK_EVERY=10 takes about a fifth of that.

cycles=${1:-1000000}
every=${2:-1}
patterns=${SOAK_PATTERNS:-adversarial}
jobs=${SOAK_JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)}
out=${SOAK_DIR:-build/soak}

if [ "${SOAK_ONE:-}" = 1 ]; then
    # One run: CYCLES CHECK_EVERY NAME PATTERN then the --set arguments of the mechanism.
    shift 2
    name=$1
    pattern=$2
    shift 2
    check=--check
    [ "$every" -gt 1 ] && check="--check-every $every"
    warmup=$((cycles / 100))
    start=$(date +%s)
    # $check is one or two words: split on purpose.
    # shellcheck disable=SC2086
    nice -n "${SOAK_NICE:-10}" "$out/dfsim" run conf/default.cfg $check --quiet -o "$out/$name.json" \
        --set topology.p=3 --set topology.a=6 --set topology.h=3 --set traffic.load=1.0 \
        --set traffic.pattern="$pattern" --set sim.warmup_cycles=$warmup \
        --set sim.measure_cycles=$((cycles - warmup)) "$@" >"$out/$name.log" 2>&1
    status=$?
    took=$(($(date +%s) - start))
    accepted=$(sed -n 's/.*accepted \([0-9.]*\).*/\1/p' "$out/$name.log")
    if [ "$status" -eq 0 ]; then
        verdict=held
    else
        verdict="BROKEN (exit $status: $(grep dfsim: "$out/$name.log" | head -n 1))"
    fi
    printf '%-28s %-24s accepted %-7s %6ss  %s\n' "$name" "$pattern" "${accepted:-?}" "$took" \
        "$verdict" >"$out/$name.verdict"
    cat "$out/$name.verdict"
    exit "$status"
fi

[ -x ./dfsim ] || { echo "soak: ./dfsim is missing: run make dfsim" >&2; exit 1; }
mkdir -p "$out"
rm -f "$out"/*.verdict
cp ./dfsim "$out/dfsim" || exit 1 # every run uses this binary, even if ./dfsim is rebuilt
mechanisms="min:routing.mechanism=min
valiant_group:routing.mechanism=valiant,routing.valiant_target=group
valiant_router:routing.mechanism=valiant,routing.valiant_target=router
oblivious_crg:routing.mechanism=oblivious,routing.global_policy=crg
oblivious_rrg:routing.mechanism=oblivious,routing.global_policy=rrg
piggyback_crg:routing.mechanism=piggyback,routing.global_policy=crg
piggyback_rrg:routing.mechanism=piggyback,routing.global_policy=rrg
in_transit_crg:routing.mechanism=in_transit,routing.global_policy=crg
in_transit_rrg:routing.mechanism=in_transit,routing.global_policy=rrg
in_transit_nrg:routing.mechanism=in_transit,routing.global_policy=nrg
in_transit_mm:routing.mechanism=in_transit,routing.global_policy=mm"

echo "soak: $cycles cycles per run on p=3 a=6 h=3 at offered load 1.0, invariants checked" \
    "every $every cycle(s), $jobs at a time; logs in $out/"
start=$(date +%s)
for pattern in $patterns; do
    echo "$mechanisms" | while IFS=: read -r name sets; do
        case " ${SOAK_ONLY:-$name} " in *" $name "*) ;; *) continue ;; esac
        # One line per run: NAME PATTERN --set A --set B
        printf '%s_%s %s' "$name" "$pattern" "$pattern"
        echo "$sets" | tr ',' '\n' | while read -r s; do printf ' --set %s' "$s"; done
        echo
    done
done | SOAK_ONE=1 xargs -P "$jobs" -L 1 sh tools/soak.sh "$cycles" "$every" >/dev/null
runs=$(find "$out" -name '*.verdict' | wc -l)
held=$(grep -l ' held$' "$out"/*.verdict 2>/dev/null | wc -l)
cat "$out"/*.verdict
echo "soak: $held of $runs runs held ($(($(date +%s) - start)) s)"
[ "$held" -eq "$runs" ] && [ "$runs" -gt 0 ]
