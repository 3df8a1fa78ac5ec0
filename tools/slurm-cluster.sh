#!/usr/bin/env bash
# slurm-cluster: a real one-node Slurm cluster on this machine (munged + slurmctld + slurmd from
# Debian's packages, no systemd), for `make test-slurm`.
#
#   tools/slurm-cluster.sh check    can a cluster be had here? exit 0 (silent) if so; else prints
#                                   the reason on stdout and exits 3, having changed nothing
#   tools/slurm-cluster.sh start    install the packages if missing (root, `tools/deps.sh
#                                   slurm`: the package list lives there), start the daemons
#                                   that are not running, wait until the node takes jobs; prints
#                                   "export SLURM_CONF=... DFSIM_SLURM_STARTED=0|1" on stdout
#                                   for the clients (eval it; 1: this call started a daemon)
#   tools/slurm-cluster.sh stop     cancel our jobs, stop the daemons this script started (by
#                                   the PIDs it recorded), and only those
#   tools/slurm-cluster.sh status   daemons, sinfo, squeue
#
# The cluster's files live in $DFSIM_SLURM_DIR (default /var/lib/dfsim-slurm): slurm.conf,
# controller state, slurmd spool, logs, pid files, and `started` (the daemons to stop). A
# cluster that already answers (`sinfo` works with the system's configuration) is used as it is
# and nothing is started or stopped. Environment: DFSIM_SLURM_TIMEOUT (60 s to wait for the
# node), DFSIM_SLURM_NO_INSTALL=1 (never call apt-get).
# Exit status: 0 ok; 1 with a "slurm-cluster: ERROR: ..." line; 3 no cluster can be had here,
# for a reason found before anything is installed or started (not root; Slurm missing with
# DFSIM_SLURM_NO_INSTALL=1 or no apt-get; no cgroup filesystem for slurmd): callers may skip.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)

BASE=${DFSIM_SLURM_DIR:-/var/lib/dfsim-slurm}
TIMEOUT=${DFSIM_SLURM_TIMEOUT:-60}
CONF=$BASE/slurm.conf
STARTED=$BASE/started
MUNGE_RUN=/run/munge
MUNGE_PID=$MUNGE_RUN/munged.pid
MUNGE_KEY=/etc/munge/munge.key
PARTITION=dfsim

log() { echo "slurm-cluster: $*" >&2; }
die() {
    echo "slurm-cluster: ERROR: $*" >&2
    exit 1
}

# pid_is PID COMM: the process is alive (not a zombie) and runs COMM
pid_is() {
    local p=$1 comm=$2
    [ -n "$p" ] && [ -r "/proc/$p/comm" ] || return 1
    [ "$(cat "/proc/$p/comm" 2>/dev/null)" = "$comm" ] || return 1
    [ "$(awk '{print $3}' "/proc/$p/stat" 2>/dev/null)" != Z ]
}

# pid_file_alive FILE COMM: prints the pid in FILE if that process is alive and is COMM
pid_file_alive() {
    local p
    [ -r "$1" ] || return 1
    p=$(tr -dc 0-9 <"$1" 2>/dev/null) || return 1
    pid_is "$p" "$2" && echo "$p"
}

installed() {
    command -v slurmctld >/dev/null && command -v slurmd >/dev/null &&
        command -v sbatch >/dev/null && command -v munged >/dev/null
}

# A cluster that already answers with the system's configuration (and not one of ours).
running_elsewhere() {
    [ ! -f "$STARTED" ] && installed && env -u SLURM_CONF sinfo -h >/dev/null 2>&1
}

# cgroup_problem: prints why slurmd cannot start here for want of a cgroup filesystem, or
# fails (nothing printed) if there is one. Slurm 22.05 (Debian 12) loads its cgroup plugin even
# with proctrack/linuxproc and task/none, and detects the cgroup version from the filesystem on
# /sys/fs/cgroup exactly as below (autodetect_cgroup_version); where it finds none, slurmd
# exits with "No filesystem mounted on /sys/fs/cgroup".
cgroup_problem() {
    local fs sub
    fs=$(stat -f -c %T /sys/fs/cgroup 2>/dev/null) ||
        { echo "/sys/fs/cgroup does not exist (slurmd needs a cgroup filesystem there)"; return 0; }
    case $fs in
    cgroup2fs) return 1 ;;
    tmpfs) # cgroup v1, or hybrid: slurmd reads the type of /sys/fs/cgroup/systemd
        sub=$(stat -f -c %T /sys/fs/cgroup/systemd 2>/dev/null) || sub=none
        case $sub in
        cgroupfs) return 1 ;;
        cgroup2fs) [ -d /sys/fs/cgroup/unified ] && return 1 ;;
        esac
        echo "/sys/fs/cgroup is a tmpfs without the cgroup hierarchy slurmd looks for at" \
            "/sys/fs/cgroup/systemd (found: $sub)"
        ;;
    sysfs) echo "no cgroup filesystem mounted on /sys/fs/cgroup (slurmd cannot start without one)" ;;
    *) echo "unknown filesystem type '$fs' on /sys/fs/cgroup (slurmd cannot start on it)" ;;
    esac
    return 0
}

# unavailable: prints why no cluster can be had here, or fails (nothing printed) if one can.
# Looks only: installs and starts nothing.
unavailable() {
    running_elsewhere && return 1
    if [ "$(id -u)" != 0 ]; then
        echo "not root (cannot install or start slurmd)"
    elif ! installed && [ "${DFSIM_SLURM_NO_INSTALL:-0}" = 1 ]; then
        echo "Slurm is not installed and DFSIM_SLURM_NO_INSTALL=1 forbids installing it"
    elif ! installed && ! command -v apt-get >/dev/null; then
        echo "Slurm is not installed and there is no apt-get to install it"
    else
        cgroup_problem || return 1
    fi
    return 0
}

install_packages() {
    installed && return 0
    # Its output goes to stderr: stdout carries the environment line for the callers.
    sh "$HERE/deps.sh" slurm >&2 || die "tools/deps.sh slurm could not install the Slurm packages"
    installed || die "packages installed but the Slurm commands are still missing"
}

# Records a daemon this script started, to stop it (and only it) later.
STARTED_NOW=0
record() {
    echo "$1 $2" >>"$STARTED"
    STARTED_NOW=1
}

dump_logs() {
    local f
    for f in "$BASE/log/slurmctld.log" "$BASE/log/slurmd.log" /var/log/munge/munged.log; do
        [ -r "$f" ] && { echo "---- tail $f" >&2; tail -n 15 "$f" >&2; }
    done
    return 0
}

munge_ok() { munge -n 2>/dev/null | unmunge >/dev/null 2>&1; }

start_munge() {
    local p i
    if p=$(pid_file_alive "$MUNGE_PID" munged) && munge_ok; then
        log "munged already running (pid $p)"
        return 0
    fi
    if [ ! -s "$MUNGE_KEY" ]; then
        log "creating the munge key"
        mkdir -p /etc/munge
        mungekey --create --keyfile="$MUNGE_KEY" --force
    fi
    chown munge:munge /etc/munge "$MUNGE_KEY"
    chmod 700 /etc/munge
    chmod 600 "$MUNGE_KEY"
    mkdir -p "$MUNGE_RUN" /var/lib/munge /var/log/munge
    chown munge:munge "$MUNGE_RUN" /var/lib/munge /var/log/munge
    chmod 755 "$MUNGE_RUN"
    rm -f "$MUNGE_PID"
    runuser -u munge -- /usr/sbin/munged || die "munged failed to start (see /var/log/munge/munged.log)"
    for i in $(seq 50); do
        if munge_ok && p=$(pid_file_alive "$MUNGE_PID" munged); then
            record munged "$p"
            log "started munged (pid $p)"
            return 0
        fi
        sleep 0.1
    done
    dump_logs
    die "munged started but munge -n | unmunge fails"
}

write_conf() {
    local host node mem
    host=$(hostname -s)
    # slurmd -C prints the real node; more CPUs or memory than it has would DRAIN the node
    node=$(slurmd -C | head -n1)
    [[ $node == NodeName=* ]] || die "slurmd -C gave no NodeName line: $node"
    mem=$(sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p' <<<"$node")
    [ -n "$mem" ] || die "cannot read RealMemory from slurmd -C"
    node=$(sed "s/RealMemory=[0-9]*/RealMemory=$((mem * 9 / 10))/" <<<"$node")
    mkdir -p "$BASE/ctld" "$BASE/spool" "$BASE/log"
    cat >"$CONF.tmp" <<EOF
# generated by dfsim tools/slurm-cluster.sh: one node, no cgroups, no accounting
ClusterName=dfsimci
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CryptoType=crypto/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MailProg=/bin/true
StateSaveLocation=$BASE/ctld
SlurmdSpoolDir=$BASE/spool
SlurmctldPidFile=$BASE/slurmctld.pid
SlurmdPidFile=$BASE/slurmd.pid
SlurmctldLogFile=$BASE/log/slurmctld.log
SlurmdLogFile=$BASE/log/slurmd.log
SlurmctldPort=6817
SlurmdPort=6818
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=$PARTITION Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
    mv "$CONF.tmp" "$CONF"
}

node_state() { sinfo -h -n "$(hostname -s)" -o %T 2>/dev/null | head -n1; }

wait_node() {
    local t0 st resumed=0
    t0=$(date +%s)
    while :; do
        st=$(node_state || true)
        case "$st" in
        idle | mixed | allocated | completing) return 0 ;;
        drain* | down* | fail*)
            if [ "$resumed" = 0 ]; then
                log "node is $st ($(sinfo -h -R -o %E 2>/dev/null)); resuming it"
                scontrol update nodename="$(hostname -s)" state=resume 2>/dev/null || true
                resumed=1
            fi
            ;;
        esac
        if [ $(($(date +%s) - t0)) -ge "$TIMEOUT" ]; then
            dump_logs
            die "node not usable after ${TIMEOUT}s (state '${st:-no answer from slurmctld}')"
        fi
        sleep 0.2
    done
}

# start_daemon NAME: slurmctld or slurmd from our configuration, unless ours already runs
start_daemon() {
    local name=$1 p i
    if p=$(pid_file_alive "$BASE/$name.pid" "$name"); then
        log "$name already running (pid $p)"
        return 0
    fi
    rm -f "$BASE/$name.pid"
    if [ "$name" = slurmctld ]; then
        rm -f "$BASE/ctld/clustername"
        slurmctld -c -f "$CONF" || { dump_logs; die "slurmctld failed to start"; }
    else
        slurmd -f "$CONF" || { dump_logs; die "slurmd failed to start"; }
    fi
    for i in $(seq 50); do
        if p=$(pid_file_alive "$BASE/$name.pid" "$name"); then
            record "$name" "$p"
            log "started $name (pid $p)"
            return 0
        fi
        sleep 0.1
    done
    dump_logs
    die "$name exited right after its start"
}

cmd_check() {
    local why
    why=$(unavailable) || return 0
    echo "$why"
    exit 3
}

cmd_start() {
    local t0 why
    t0=$(date +%s.%N)
    if running_elsewhere; then
        log "a Slurm cluster is already running: using it as it is"
        echo "export DFSIM_SLURM_STARTED=0"
        return 0
    fi
    if why=$(unavailable); then
        log "no cluster can be had here: $why"
        exit 3
    fi
    install_packages
    mkdir -p "$BASE"
    export SLURM_CONF=$CONF
    start_munge
    [ -f "$CONF" ] && pid_file_alive "$BASE/slurmctld.pid" slurmctld >/dev/null || write_conf
    start_daemon slurmctld
    start_daemon slurmd
    wait_node
    log "cluster ready in $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f", b-a}') s"
    echo "export SLURM_CONF=$CONF DFSIM_SLURM_STARTED=$STARTED_NOW"
}

# stop_pid NAME PID: TERM, up to 10 s, then KILL; this PID only
stop_pid() {
    local name=$1 p=$2 i
    pid_is "$p" "$name" || return 0
    kill -TERM "$p" 2>/dev/null || true
    for i in $(seq 100); do
        pid_is "$p" "$name" || { log "stopped $name (pid $p)"; return 0; }
        sleep 0.1
    done
    log "$name (pid $p) ignored SIGTERM: SIGKILL"
    kill -KILL "$p" 2>/dev/null || true
}

cmd_stop() {
    [ -f "$STARTED" ] || { log "no daemon started by this script is recorded"; return 0; }
    export SLURM_CONF=$CONF
    if grep -q '^slurmctld ' "$STARTED"; then
        scancel --partition="$PARTITION" 2>/dev/null || true
    fi
    local name p
    for name in slurmd slurmctld munged; do # reverse order of the start
        while read -r n p; do
            [ "$n" = "$name" ] && stop_pid "$name" "$p"
        done <"$STARTED"
    done
    rm -f "$STARTED"
}

cmd_status() {
    local name p
    for name in slurmctld slurmd; do
        if p=$(pid_file_alive "$BASE/$name.pid" "$name"); then echo "$name: running (pid $p)"; else echo "$name: not running"; fi
    done
    if p=$(pid_file_alive "$MUNGE_PID" munged); then echo "munged: running (pid $p)"; else echo "munged: not running"; fi
    [ -f "$STARTED" ] && { echo "started by this script:"; cat "$STARTED"; }
    [ -f "$CONF" ] && export SLURM_CONF=$CONF
    sinfo 2>&1 || true
    squeue 2>&1 || true
}

case "${1:-}" in
check) cmd_check ;;
start) cmd_start ;;
stop) cmd_stop ;;
status) cmd_status ;;
*)
    echo "usage: $0 check|start|stop|status" >&2
    exit 2
    ;;
esac
