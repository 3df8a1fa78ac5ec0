#!/bin/sh
# refcheck: runs the reference points below with ./dfsim and compares each result document,
# without its "dfsim", "config" and "timing" members, with the one recorded in
# tests/reference/NAME.json (`make refcheck`, part of `make test`). A refactor must leave every
# one identical; only a deliberate model change re-records them (`make refcheck-record`), in a
# commit of its own that says why.
#
# One line per point: "name|config|settings" (KEY=VALUE pairs applied with --set to the config
# after COMMON). Together they cover every routing mechanism and global policy, every pattern,
# both arbiters with and without transit priority, both arrangements and speedup 1 on the
# canonical dragonfly; MIN, Valiant and FPAR on a Dragonfly+; UGAL with and without an Aries
# preset on the cascade (a preset detours inside a group); fractional link bandwidths; jobs with messages, motifs, placements and throttles.
COMMON="sim.warmup_cycles=1500 sim.measure_cycles=2500"
H3="topology.p=3 topology.a=6 topology.h=3"
DEFAULT=conf/default.cfg
# The Dragonfly+ router's first rule (a hash among minimal ports, output buffers of
# 4 packets): its points stay as recorded, proving the hash unchanged; the *_oq points are the
# shipped configs' (min_choice auto = occupancy, output-queued).
DFP_V1="routing.min_choice=hash buffers.output=32"
POINTS="
min_un_rr|$DEFAULT|traffic.pattern=uniform traffic.load=0.5
min_adv1_rrtp|$DEFAULT|traffic.pattern=adversarial traffic.load=0.3 router.transit_priority=true
min_bitcomp_speedup1|$DEFAULT|traffic.pattern=bit_complement traffic.load=0.3 router.speedup=1
val_un_age|$DEFAULT|$H3 routing.mechanism=valiant traffic.pattern=uniform traffic.load=0.5 router.arbiter=age
valany_advc_rr|$DEFAULT|$H3 routing.mechanism=valiant routing.valiant_target=router traffic.pattern=adversarial_consecutive traffic.load=0.4
val_perm_consecutive|$DEFAULT|routing.mechanism=valiant traffic.pattern=permutation traffic.load=0.4 topology.arrangement=consecutive
obl_crg_advc_rrtp|$DEFAULT|$H3 routing.mechanism=oblivious routing.global_policy=crg traffic.pattern=adversarial_consecutive traffic.load=0.5 router.transit_priority=true
obl_rrg_adv1_age|$DEFAULT|$H3 routing.mechanism=oblivious routing.global_policy=rrg traffic.pattern=adversarial traffic.load=0.4 router.arbiter=age
pb_crg_adv1_rr|$DEFAULT|$H3 routing.mechanism=piggyback routing.global_policy=crg traffic.pattern=adversarial traffic.load=0.4
pb_rrg_advc_agetp|$DEFAULT|$H3 routing.mechanism=piggyback routing.global_policy=rrg traffic.pattern=adversarial_consecutive traffic.load=0.5 router.arbiter=age router.transit_priority=true
it_crg_advc_rrtp|$DEFAULT|$H3 routing.mechanism=in_transit routing.global_policy=crg traffic.pattern=adversarial_consecutive traffic.load=0.5 router.transit_priority=true
it_rrg_adv2_rr|$DEFAULT|$H3 routing.mechanism=in_transit routing.global_policy=rrg traffic.pattern=adversarial traffic.offset=2 traffic.load=0.6
it_nrg_un_age|$DEFAULT|$H3 routing.mechanism=in_transit routing.global_policy=nrg traffic.pattern=uniform traffic.load=0.7 router.arbiter=age
it_mm_advc_speedup1|$DEFAULT|$H3 routing.mechanism=in_transit routing.global_policy=mm traffic.pattern=adversarial_consecutive traffic.load=0.4 router.speedup=1
fpar_dfplus_un|conf/dragonfly_plus_small.cfg|$DFP_V1 traffic.pattern=uniform traffic.load=0.8
fpar_dfplus_adv1|conf/dragonfly_plus_small.cfg|$DFP_V1 traffic.pattern=adversarial traffic.load=0.5
min_dfplus_adv1|conf/dragonfly_plus_small.cfg|$DFP_V1 routing.mechanism=min traffic.pattern=adversarial traffic.load=0.3
val_dfplus_un|conf/dragonfly_plus_small.cfg|$DFP_V1 routing.mechanism=valiant traffic.pattern=uniform traffic.load=0.4
min_dfplus_un_oq|conf/dragonfly_plus_small.cfg|routing.mechanism=min traffic.pattern=uniform traffic.load=0.9
fpar_dfplus_adv1_oq|conf/dragonfly_plus_small.cfg|traffic.pattern=adversarial traffic.load=0.5
val_dfplus_un_oq|conf/dragonfly_plus_small.cfg|routing.mechanism=valiant traffic.pattern=uniform traffic.load=0.4
ugal_cascade_un|conf/aries_small.cfg|traffic.pattern=uniform traffic.load=0.6
ugal_cascade_un_preset0|conf/aries_small.cfg|routing.ugal_preset=adaptive_0 traffic.pattern=uniform traffic.load=0.6
ugalg_cascade_adv1_preset2|conf/aries_small.cfg|routing.mechanism=ugal_g routing.ugal_preset=adaptive_2 traffic.pattern=adversarial traffic.load=0.4
min_un_bandwidths|$DEFAULT|links.bandwidth_node=3.66 links.bandwidth_local=1.2 links.bandwidth_global=0.5 traffic.load=0.6
jobs_dfplus_small|conf/jobs/dfplus_interference_small.cfg|$DFP_V1 jobs.app.process=periodic jobs.app.interval_cycles=100
jobs_dfplus_small_oq|conf/jobs/dfplus_interference_small.cfg|jobs.app.process=periodic jobs.app.interval_cycles=100
jobs_throttling_small_aimd|conf/jobs/throttling_small.cfg|jobs.app.throttle=aimd jobs.a2a.throttle=static jobs.a2a.throttle_rate=0.3 jobs.inc.throttle=aimd
"
# REFCHECK_LIST=1: print the points as "name|config|--set K=V ..." and run nothing (what
# tools/seed_spread.py reads).
if [ "${REFCHECK_LIST:-0}" = 1 ]; then
    echo "$POINTS" | while IFS='|' read -r name config settings; do
        [ -n "$name" ] || continue
        sets=
        for kv in $COMMON $settings; do
            sets="$sets --set $kv"
        done
        echo "$name|$config|$sets"
    done
    exit 0
fi
DFSIM=${DFSIM:-./dfsim}
PYTHON=${PYTHON:-/usr/bin/python3}
REF=tests/reference
RECORD=${REFCHECK_RECORD:-0}
[ -x "$DFSIM" ] || { echo "refcheck: $DFSIM not built (run make)" >&2; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dfsim-refcheck.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

passed=0
failed=0
names=
echo "$POINTS" | {
    while IFS='|' read -r name config settings; do
        [ -n "$name" ] || continue
        sets=
        for kv in $COMMON $settings; do
            sets="$sets --set $kv"
        done
        # shellcheck disable=SC2086  # the --set pairs are split on purpose
        if ! "$DFSIM" run "$config" --quiet -o "$tmp/$name.json" $sets >"$tmp/$name.log" 2>&1; then
            echo "refcheck: $name: dfsim failed:" >&2
            cat "$tmp/$name.log" >&2
            failed=$((failed + 1))
            continue
        fi
        if "$PYTHON" tools/refcheck_compare.py "$tmp/$name.json" "$REF/$name.json" "$RECORD"; then
            passed=$((passed + 1))
        else
            failed=$((failed + 1))
        fi
    done
    if [ "$RECORD" = 1 ]; then
        echo "refcheck: recorded $passed reference documents in $REF/"
    else
        echo "refcheck: $passed passed, $failed failed"
    fi
    [ "$failed" = 0 ]
}
