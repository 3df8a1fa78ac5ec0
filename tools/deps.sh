#!/bin/sh
# deps: the one list of the Debian (12) packages dfsim needs. Checks them; run as root, installs
# the missing ones (apt-get update once, then apt-get install --no-install-recommends);
# otherwise prints the apt-get line to run and fails. Plain POSIX sh: tools/setup.sh runs it
# before make exists (which is why make is on the list).
#
#   sh tools/deps.sh [GROUP]          check GROUP (default main), install what is missing
#   sh tools/deps.sh --list [GROUP]   print GROUP's packages, installed or not
#
# Groups: main   build, demo, test suite and plots (make deps, which make demo, make test and
#                tools/setup.sh run first)
#         slurm  the one-node Slurm cluster of make test-slurm (tools/slurm-cluster.sh start
#                installs it when the test can run)
# Exit status: 0 all present (or installed now); 1 missing and not installed; 2 usage.

usage() {
    echo "usage: sh tools/deps.sh [--list] [main|slurm]" >&2
    exit 2
}

# packages GROUP: `want PACKAGE TEST` for each package of GROUP; TEST, a shell command
# (evaluated later, hence the single quotes), succeeds when the package is installed.
# shellcheck disable=SC2016
packages() {
    case $1 in
    main)
        want make 'command -v make'
        want gcc 'command -v cc'
        want pkg-config 'command -v pkg-config'
        want libconfig-dev 'pkg-config --exists libconfig'
        want libcjson-dev 'pkg-config --exists libcjson'
        want libcunit1-dev 'pkg-config --exists cunit'
        # trace jobs: the OTF2 library, otf2-print (the tests compare counts with it) and the
        # Python writer of the tests' traces
        want libotf2-trace-dev 'pkg-config --exists otf2'
        want otf2-tools 'command -v otf2-print'
        want python3-otf2 "/usr/bin/python3 -c 'import otf2'"
        want time '[ -x /usr/bin/time ]'
        want python3-matplotlib "/usr/bin/python3 -c 'import matplotlib'"
        want python3-pandas "/usr/bin/python3 -c 'import pandas'"
        # make test-fuzz: clang and its libFuzzer runtime
        want clang 'command -v clang'
        want libclang-rt-14-dev \
            '[ -f "$(clang --print-runtime-dir)/libclang_rt.fuzzer-$(uname -m).a" ]'
        ;;
    slurm)
        want slurmctld 'command -v slurmctld'
        want slurmd 'command -v slurmd'
        want slurm-client 'command -v sbatch'
        want munge 'command -v munged'
        ;;
    esac
}

list=0
if [ "${1:-}" = --list ]; then
    list=1
    shift
fi
group=${1:-main}
case $group in
main | slurm) ;;
*) usage ;;
esac
[ $# -le 1 ] || usage
name="deps"
[ "$group" = main ] || name="deps ($group)"

all=""
missing=""
want() {
    all="${all:+$all }$1"
    [ "$list" = 1 ] && return 0
    eval "$2" >/dev/null 2>&1 || missing="${missing:+$missing }$1"
}

packages "$group"
if [ "$list" = 1 ]; then
    echo "$all"
    exit 0
fi
if [ -z "$missing" ]; then
    echo "$name: all present"
    exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
    echo "$name: missing Debian packages: $missing" >&2
    echo "$name: install them (as root) with:" >&2
    echo "sudo apt-get update && sudo apt-get install -y --no-install-recommends $missing" >&2
    exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "$name: missing: $missing" >&2
    echo "$name: apt-get not found: these are Debian 12 package names; install their equivalents" >&2
    exit 1
fi

echo "$name: installing $missing"
export DEBIAN_FRONTEND=noninteractive
# No package may start a service from its postinst (slurmd, munge: on a machine without systemd
# they would start with the packaged configuration); make test-slurm starts its own daemons.
made_policy=0
if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod 755 /usr/sbin/policy-rc.d &&
        made_policy=1
fi
rc=0
# $missing is a list of package names: split on purpose.
# shellcheck disable=SC2086
{ apt-get update -q && apt-get install -y -q --no-install-recommends $missing; } || rc=$?
[ "$made_policy" = 1 ] && rm -f /usr/sbin/policy-rc.d
if [ "$rc" -ne 0 ]; then
    echo "$name: apt-get failed (exit $rc) installing $missing" >&2
    exit 1
fi

wanted="$missing"
missing=""
all=""
packages "$group"
if [ -n "$missing" ]; then
    echo "$name: still missing after installing $wanted: $missing" >&2
    exit 1
fi
echo "$name: installed $wanted"
