#!/usr/bin/env bash
# slurm_test: the Slurm round trip (`make test-slurm`, also run by `make test`): a one-node
# cluster on localhost (tools/slurm-cluster.sh), a small sweep run through `dfsim sweep --slurm`
# and the same sweep run locally; the point documents must be equal but for "timing", and
# sweep.json byte for byte. Stops the daemons it started.
# Exit status: 0 passed; 1 failed ("test-slurm: FAILED: ..."); 77 skipped, the last line saying
# "test-slurm: skipped: REASON": only where tools/slurm-cluster.sh check finds, before anything
# is installed or started, that no cluster can be had here (not root; no cgroup filesystem for
# slurmd; ...). tools/test-group.sh (make test-slurm) counts 77 as a skip, not as a pass.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { echo "test-slurm: $*"; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
fail() {
    say "FAILED: $*"
    exit 1
}
skip() {
    say "skipped: $*"
    exit 77
}

[ -x ./dfsim ] || fail "./dfsim is missing: run make dfsim"
t_all=$(now)
rc=0
why=$(tools/slurm-cluster.sh check) || rc=$?
[ "$rc" = 3 ] && skip "$why"
[ "$rc" = 0 ] || fail "tools/slurm-cluster.sh check failed (exit $rc)"
env_line=$(tools/slurm-cluster.sh start) || rc=$?
# The check found nothing in the way: a start that fails now is a failure, not a skip.
[ "$rc" = 0 ] || { tools/slurm-cluster.sh stop || true; fail "tools/slurm-cluster.sh start failed (exit $rc)"; }
DFSIM_SLURM_STARTED=0
eval "$env_line"
# Stop the daemons at the end only if this run started them (a cluster already up stays up).
stop_cluster() { [ "$DFSIM_SLURM_STARTED" = 1 ] && tools/slurm-cluster.sh stop || true; }
t_cluster=$(since "$t_all")

work=$(mktemp -d /tmp/dfsim-slurm-test.XXXXXX)
trap 'stop_cluster; rm -rf "$work"' EXIT
# 6 points of the 72-node network, plus a saturation search per seed (coarse resolution).
cat >"$work/roundtrip.cfg" <<EOF
name = "slurm-roundtrip";
base = "$PWD/conf/default.cfg";
set = { sim = { warmup_cycles = 300; measure_cycles = 600; }; };
axes = { traffic = { load = [0.2, 0.4, 0.6]; }; sim = { seed = [1, 2]; }; };
variants = ( { name = "MIN"; routing = { mechanism = "min"; }; },
             { name = "VAL-sat"; routing = { mechanism = "valiant"; };
               saturation = true; resolution = 0.25; } );
EOF

t=$(now)
./dfsim sweep "$work/roundtrip.cfg" -o "$work/local" --jobs 2 --quiet ||
    fail "the local sweep failed"
t_local=$(since "$t")

t=$(now)
./dfsim sweep "$work/roundtrip.cfg" -o "$work/slurm" --slurm --points-per-task 2 ||
    fail "the Slurm sweep failed (logs in $work/slurm/slurm-logs/)"
t_slurm=$(since "$t")
grep -q -- '--array=0-3' "$work/slurm/slurm.sbatch" || fail "expected 4 array tasks"
[ "$(ls "$work/slurm/slurm-logs" | wc -l)" = 4 ] || fail "expected 4 task logs"

# Same documents once "timing" is removed, same merged sweep.json.
strip_timing() { sed '/^\t"timing":\t{$/,/^\t},\{0,1\}$/d' "$1"; }
n=0
while IFS= read -r file; do
    rel=${file#"$work/local/"}
    [ -f "$work/slurm/$rel" ] || fail "$rel is missing from the Slurm run"
    cmp -s <(strip_timing "$file") <(strip_timing "$work/slurm/$rel") ||
        fail "$rel differs between the local and the Slurm run"
    grep -q '"timing":' "$file" || fail "$rel has no timing object"
    n=$((n + 1))
done < <(find "$work/local" -name '*.json' ! -name sweep.json ! -name '.*' | sort)
[ "$n" -ge 8 ] || fail "expected at least 8 point documents, found $n"
[ "$(find "$work/slurm" -name '*.json' ! -name '.*' | wc -l)" = $((n + 1)) ] ||
    fail "the Slurm run wrote other documents than the local one"
cmp -s "$work/local/sweep.json" "$work/slurm/sweep.json" ||
    fail "sweep.json differs between the local and the Slurm run"

# Resubmitting finds nothing missing.
out=$(./dfsim sweep "$work/roundtrip.cfg" -o "$work/slurm" --slurm)
grep -q "already done; nothing to submit" <<<"$out" || fail "resubmission ran points again: $out"

t_stop=$(now)
stop_cluster
DFSIM_SLURM_STARTED=0 # stopped: nothing left for the exit trap
say "$n point documents and sweep.json equal to the local run's (timing aside)"
say "timing: cluster start ${t_cluster} s, local sweep (--jobs 2) ${t_local} s, Slurm sweep" \
    "${t_slurm} s, cluster stop $(since "$t_stop") s, total $(since "$t_all") s"
say "passed"
