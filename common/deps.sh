#!/bin/sh
# deps.sh - make sure the tools a target needs are here; on Debian as root, install what is missing.
# usage: common/deps.sh grade|check
# Exit 0 when everything is present (or was installed), 2 with the exact install command otherwise.
set -u
need=""
have() { command -v "$1" >/dev/null 2>&1; }
have gcc || need="$need gcc"
have nm && have readelf && have objcopy || need="$need binutils"
# OpenBLAS: the measured ceiling of the matrix-multiply labs
echo '#include <cblas.h>' | gcc -E -x c - >/dev/null 2>&1 || need="$need libopenblas-dev"
if [ "${1:-grade}" = check ]; then
    # Check's header and library; pkg-config finds its link flags.
    if ! { have pkg-config && pkg-config --exists check; } && [ ! -f /usr/include/check.h ]; then
        need="$need check"
    fi
    have pkg-config || need="$need pkg-config"
fi
[ -z "$need" ] && exit 0

if [ "$(id -u)" = 0 ] && have apt-get; then
    echo "installing missing Debian packages:$need" >&2
    if { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need; } >&2; then
        exit 0
    fi
    echo "error: apt-get could not install:$need" >&2
    exit 2
fi
echo "error: missing:$need" >&2
echo "install it with:  sudo apt-get install -y$need" >&2
exit 2
