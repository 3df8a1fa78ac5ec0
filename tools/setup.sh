#!/bin/sh
# setup: the README's quick start, from nothing: a minimal Debian 12 has no make yet, so this is
# plain POSIX sh. It runs tools/deps.sh (the one list of packages, make among them: installs the
# missing ones as root, or prints the apt-get line and stops), then `make demo` or `make test`,
# which check the same list again (`make deps`: a second or so once all is present).
#
#   sh tools/setup.sh demo    install what is missing, build, run conf/default.cfg
#   sh tools/setup.sh test    install what is missing, then the whole test suite
#
# Exit status: that of make; 1 if the packages are missing and cannot be installed; 2 usage.

usage() {
    echo "usage: sh tools/setup.sh demo|test" >&2
    exit 2
}

[ $# -eq 1 ] || usage
case $1 in
demo | test) ;;
*) usage ;;
esac

cd "$(dirname "$0")/.." || exit 1
if ! sh tools/deps.sh; then
    echo "setup: the packages above are missing; once they are installed, run again:" >&2
    echo "sh tools/setup.sh $1" >&2
    exit 1
fi
exec make "$1"
