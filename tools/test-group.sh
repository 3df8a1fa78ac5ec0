#!/bin/sh
# test-group: runs one group of `make test` and records what actually ran, or prints the closing
# summary from those records. Called by the Makefile's test targets.
#
#   sh tools/test-group.sh counts GROUP CMD [ARG...]    counts from CMD's last line of the form
#                                                       "N passed, M failed" (the CUnit runner
#                                                       ./dfsim-test's), or "NAME: N passed, M
#                                                       failed"
#   sh tools/test-group.sh unittest GROUP CMD [ARG...]  CMD runs `python3 -m unittest -v`: counts
#                                                       from "Ran N tests" and "OK (...)" or
#                                                       "FAILED (...)"; each "... skipped 'WHY'"
#                                                       is named
#   sh tools/test-group.sh commands GROUP 'CMD'...      each CMD (a shell command line) is one
#                                                       test: exit 0 passed, 77 skipped (its last
#                                                       "skipped: WHY" line says why), else failed
#   sh tools/test-group.sh summary GROUP...             every GROUP's counts and skip reasons,
#                                                       then the totals
#
# A group's output is shown and kept in build/test-results/GROUP.log; its record is
# build/test-results/GROUP. A group fails when its command fails, when it reports no count, when
# it ran no test, or when its count and its exit status disagree; it is skipped only when every
# one of its tests was skipped. Exit status: 1 if a group failed (summary: failed or left no
# record, e.g. its build failed), else 0; 2 usage.

dir=${TEST_RESULTS:-build/test-results}

usage() {
    echo "usage: sh tools/test-group.sh counts|unittest GROUP CMD [ARG...]" >&2
    echo "       sh tools/test-group.sh commands GROUP 'CMD'..." >&2
    echo "       sh tools/test-group.sh summary GROUP..." >&2
    exit 2
}

# logged LOG CMD [ARG...]: runs CMD, its output (stdout and stderr) shown and appended to LOG;
# returns CMD's exit status.
logged() {
    log=$1
    shift
    rm -f "$log.status"
    { "$@" 2>&1; echo $? >"$log.status"; } | tee -a "$log"
    status=$(cat "$log.status" 2>/dev/null)
    rm -f "$log.status"
    return "${status:-1}"
}

# number TEXT KEY: the N of "KEY=N" in TEXT ("FAILED (failures=1, errors=2)"), or 0
number() {
    n=$(printf '%s\n' "$1" | sed -n "s/.*[(, ]$2=\([0-9][0-9]*\).*/\1/p")
    echo "${n:-0}"
}

# record GROUP STATUS PASSED FAILED SKIPPED [NOTE...]: writes the record and prints the group's
# line(s); returns 1 if STATUS is failed. NOTE: "skipped: WHY" or "FAILED: WHY", one a line.
# PASSED "-": the group reported no count.
record() {
    g=$1 st=$2 p=$3 f=$4 s=$5
    shift 5
    {
        echo "status $st"
        [ "$p" = - ] || echo "counts $p $f $s"
        for note in "$@"; do echo "note $note"; done
    } >"$dir/$g"
    show "$g"
    [ "$st" != failed ]
}

# show GROUP: the group's line from its record: "GROUP: P passed, F failed, S skipped" and its
# notes, or just the notes ("GROUP: skipped: WHY") for a group none of whose tests ran or that
# reported no count.
show() {
    st=$(sed -n 's/^status //p' "$dir/$1")
    # shellcheck disable=SC2046 # three numbers
    set -- "$1" $(sed -n 's/^counts //p' "$dir/$1")
    if [ "$st" = skipped ] || [ $# -eq 1 ]; then
        sed -n "s/^note /$1: /p" "$dir/$1"
    else
        echo "$1: $2 passed, $3 failed, $4 skipped"
        sed -n "s/^note /$1:   /p" "$dir/$1"
    fi
}

# verdict GROUP EXIT PASSED FAILED SKIPPED [NOTE...]: the group's verdict from its exit status
# and its counts, recorded.
verdict() {
    g=$1 rc=$2 p=$3 f=$4 s=$5
    shift 5
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        record "$g" failed "$p" "$f" "$s" "$@" \
            "FAILED: exit $rc although no test failed (a sanitizer report at exit? see $dir/$g.log)"
    elif [ "$rc" -eq 0 ] && [ "$f" -ne 0 ]; then
        record "$g" failed "$p" "$f" "$s" "$@" "FAILED: $f failed but the exit status is 0"
    elif [ "$f" -ne 0 ]; then
        record "$g" failed "$p" "$f" "$s" "$@"
    elif [ $((p + s)) -eq 0 ]; then
        record "$g" failed 0 0 0 "$@" "FAILED: ran no test"
    elif [ "$p" -eq 0 ]; then
        record "$g" skipped "$p" "$f" "$s" "$@"
    else
        record "$g" passed "$p" "$f" "$s" "$@"
    fi
}

run_counts() {
    g=$1
    shift
    : >"$dir/$g.log"
    logged "$dir/$g.log" "$@"
    rc=$?
    line=$(sed -n 's/^\([A-Za-z0-9_-]*: \)\{0,1\}\([0-9][0-9]* passed, [0-9][0-9]* failed\)$/\2/p' \
        "$dir/$g.log" | tail -n 1)
    if [ -z "$line" ]; then
        record "$g" failed - - - "FAILED: no \"N passed, M failed\" line (exit $rc; see $dir/$g.log)"
        return
    fi
    # shellcheck disable=SC2086 # "N passed, M failed": $1 and $3
    set -- $line
    verdict "$g" "$rc" "$1" "$3" 0
}

run_unittest() {
    g=$1
    shift
    : >"$dir/$g.log"
    logged "$dir/$g.log" "$@"
    rc=$?
    ran=$(sed -n 's/^Ran \([0-9][0-9]*\) tests\{0,1\} in .*/\1/p' "$dir/$g.log" | tail -n 1)
    end=$(grep -E '^(OK|FAILED)( \(.*\))?$' "$dir/$g.log" | tail -n 1)
    if [ -z "$ran" ] || [ -z "$end" ]; then
        record "$g" failed - - - "FAILED: no \"Ran N tests\" and OK/FAILED lines from unittest (exit $rc; see $dir/$g.log)"
        return
    fi
    f=$(($(number "$end" failures) + $(number "$end" errors) + $(number "$end" "unexpected successes")))
    s=$(number "$end" skipped)
    # Each skipped test with its reason: "test_x (module.Class.test_x) ... skipped 'WHY'"
    notes=$(sed -n "s/^\([^ ][^ ]*\) .* \.\.\. skipped '\(.*\)'\$/skipped \1: \2/p" "$dir/$g.log")
    if [ "$s" -gt "$(printf '%s' "$notes" | grep -c .)" ]; then
        notes="${notes:+$notes
}skipped: $s in all, not every one named: see $dir/$g.log"
    fi
    old_ifs=$IFS
    IFS='
'
    # shellcheck disable=SC2086 # one note a line
    set -- $notes
    IFS=$old_ifs
    verdict "$g" "$rc" $((ran - f - s)) "$f" "$s" "$@"
}

run_commands() {
    g=$1
    shift
    : >"$dir/$g.log"
    p=0 f=0 s=0
    notes=""
    one=$dir/.$g.cmd.log
    for cmd in "$@"; do
        : >"$one"
        logged "$one" sh -c "$cmd"
        rc=$?
        cat "$one" >>"$dir/$g.log"
        case $rc in
        0) p=$((p + 1)) ;;
        77)
            s=$((s + 1))
            why=$(sed -n 's/.*skipped: //p' "$one" | tail -n 1)
            notes="${notes}skipped: ${why:-$cmd (exit 77, no reason given)}
"
            ;;
        *)
            f=$((f + 1))
            notes="${notes}FAILED: $cmd (exit $rc)
"
            ;;
        esac
    done
    rm -f "$one"
    old_ifs=$IFS
    IFS='
'
    # shellcheck disable=SC2086 # one note a line
    set -- $notes
    IFS=$old_ifs
    # Each command's exit status is its verdict: the group's is 0 unless one failed.
    verdict "$g" "$([ "$f" -eq 0 ] && echo 0 || echo 1)" "$p" "$f" "$s" "$@"
}

summary() {
    gr=0 gf=0 gs=0 tp=0 tf=0 ts=0
    echo "test summary:"
    for g in "$@"; do
        if [ ! -f "$dir/$g" ]; then
            echo "$g: FAILED: no record (it did not run to its end: build error or interrupted?)"
            gr=$((gr + 1)) gf=$((gf + 1))
            continue
        fi
        show "$g"
        st=$(sed -n 's/^status //p' "$dir/$g")
        # shellcheck disable=SC2046 # three numbers, or none: no count
        set -- $(sed -n 's/^counts //p' "$dir/$g") 0 0 0
        tp=$((tp + $1)) tf=$((tf + $2)) ts=$((ts + $3))
        case $st in
        skipped) gs=$((gs + 1)) ;;
        failed) gr=$((gr + 1)) gf=$((gf + 1)) ;;
        *) gr=$((gr + 1)) ;;
        esac
    done
    echo "test summary: groups $gr ran, $gf failed, $gs skipped;" \
        "tests $tp passed, $tf failed, $ts skipped"
    [ "$gf" -eq 0 ]
}

[ $# -ge 2 ] || usage
mode=$1
shift
mkdir -p "$dir" || exit 1
case $mode in
summary) summary "$@" ;;
counts | unittest | commands)
    [ $# -ge 2 ] || usage
    rm -f "$dir/$1"
    "run_$mode" "$@"
    ;;
*) usage ;;
esac
