#!/bin/sh
# deps: checks the Debian packages dfsim needs to build, test and plot; installs the missing
# ones when run as root (apt-get update once first), otherwise prints the apt-get line and fails.
# Called by `make deps`, `make test` and `make demo`.

missing=""

need() { # need PACKAGE: record a missing Debian package once
    case " $missing " in
    *" $1 "*) ;;
    *) missing="${missing:+$missing }$1" ;;
    esac
}

check() {
    command -v cc >/dev/null 2>&1 || need gcc
    command -v make >/dev/null 2>&1 || need make
    command -v pkg-config >/dev/null 2>&1 || need pkg-config
    pkg-config --exists libconfig 2>/dev/null || need libconfig-dev
    pkg-config --exists libcjson 2>/dev/null || need libcjson-dev
    pkg-config --exists cunit 2>/dev/null || need libcunit1-dev
    [ -x /usr/bin/time ] || need time
    /usr/bin/python3 -c 'import matplotlib' >/dev/null 2>&1 || need python3-matplotlib
    # make test runs a short libFuzzer session (make test-fuzz): clang and its fuzzer runtime
    command -v clang >/dev/null 2>&1 || need clang
    [ -f "$(clang --print-runtime-dir 2>/dev/null)/libclang_rt.fuzzer-$(uname -m).a" ] ||
        need libclang-rt-14-dev
}

check
if [ -z "$missing" ]; then
    echo "deps: all present"
    exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
    echo "deps: missing Debian packages: $missing" >&2
    echo "deps: install them with:" >&2
    echo "sudo apt-get install -y --no-install-recommends $missing" >&2
    exit 1
fi

echo "deps: installing $missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q || exit 1
# $missing is a list of package names: split on purpose.
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing || exit 1

wanted="$missing"
missing=""
check
if [ -n "$missing" ]; then
    echo "deps: still missing after installing $wanted: $missing" >&2
    exit 1
fi
echo "deps: installed $wanted"
