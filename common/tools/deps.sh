#!/bin/sh
# deps.sh - make sure the tools a target needs are here; on Debian as root, install what is missing.
# usage: common/tools/deps.sh grade|check
#   grade: the compiler, binutils, OpenBLAS (the matrix-multiply labs' ceiling), gnuplot (charts).
#   check: also Check and pkg-config (the test runner), pandoc (handouts), SLURM and munge (the
#          grade-all SLURM=1 test).
# A library counts as present only when a program links against it (a header is not enough:
# netlib's libblas-dev ships cblas.h without OpenBLAS). Exit 0 when everything is present (or
# was installed), 2 with the exact install command otherwise.
# CC=... names another compiler (tests use it to play a machine that lacks a library);
# DEPS_INSTALL=no only reports (tests again: nothing is installed behind their back).
# Optional packages apt-get failed to install are not tried again for 12 hours (build/.deps-optional-failed).
set -u
cc=${CC:-gcc}
need=""
have() { command -v "$1" >/dev/null 2>&1; }
# links PROGRAM FLAGS...: does a C program compile and link with these flags?
links() {
    prog=$1
    shift
    tmp=$(mktemp -d 2>/dev/null) || return 1
    printf '%s\n' "$prog" > "$tmp/t.c"
    "$cc" "$tmp/t.c" -o "$tmp/t" "$@" >/dev/null 2>&1
    rc=$?
    rm -rf "$tmp"
    return $rc
}
have "$cc" || need="$need gcc"
have nm && have readelf && have objcopy && have addr2line || need="$need binutils"
have "$cc" && ! links 'int main(void){return 0;}' -fopenmp && need="$need libgomp1"
# OpenBLAS itself: its own symbol, linked with -lopenblas as the probe is.
have "$cc" && ! links '#include <cblas.h>
int main(void){ return openblas_get_num_threads() < 0; }' -lopenblas && need="$need libopenblas-dev"
# Wanted, not needed: without them grading and the tests go on and say what they skipped.
want=""
have gnuplot || want="$want gnuplot-nox"
if [ "${1:-grade}" = check ]; then
    have pkg-config || need="$need pkg-config"
    # Check's link flags from pkg-config, as the Makefile takes them.
    ckflags=$(pkg-config --cflags --libs check 2>/dev/null || echo -lcheck -lsubunit -lrt -lm -pthread)
    # shellcheck disable=SC2086
    have "$cc" && ! links '#include <check.h>
int main(void){ return srunner_ntests_failed(srunner_create(suite_create("s"))); }' $ckflags && need="$need check"
    have pandoc || want="$want pandoc"
    have slurmctld && have slurmd && have sbatch || want="$want slurm-wlm"
    have munged || want="$want munge"
fi
[ -z "$need$want" ] && exit 0

# Only optional packages missing, and apt-get failed to install these same ones in the last 12
# hours (no network, say): not tried again on every `make grade`, which it would slow by seconds.
mark=build/.deps-optional-failed
if [ -z "$need" ] && [ -f "$mark" ] && [ "$(cat "$mark")" = "$want" ] && [ -n "$(find "$mark" -mmin -720 2>/dev/null)" ]; then
    echo "note: not installed:$want (optional: what needs it is skipped, and says so); apt-get could not install it" \
         "lately, so it is tried again in 12 hours (or now: rm $mark)" >&2
    exit 0
fi

again=""
case " $* " in *" --installed "*) again=1 ;; esac
if [ -z "$again" ] && [ "${DEPS_INSTALL:-yes}" != no ] && [ "$(id -u)" = 0 ] && have apt-get; then
    echo "installing missing Debian packages:$need$want" >&2
    # Installing must not start daemons (munge, SLURM): tests that need them start and stop them.
    rcd=/usr/sbin/policy-rc.d
    placed=""
    if [ ! -e "$rcd" ]; then
        printf '#!/bin/sh\nexit 101\n' > "$rcd" && chmod 755 "$rcd" && placed=1
    fi
    # shellcheck disable=SC2086
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $need $want; } >&2
    rc=$?
    [ -n "$placed" ] && rm -f "$rcd"
    [ $rc = 0 ] && exec sh "$0" "$@" --installed
    if [ -z "$need" ]; then
        mkdir -p build && printf '%s\n' "$want" > "$mark"
        echo "note: could not install:$want (optional: what needs it is skipped, and says so)" >&2
        exit 0
    fi
    echo "error: apt-get could not install:$need$want" >&2
    exit 2
fi
if [ -z "$need" ]; then
    echo "note: not installed:$want (optional: what needs it is skipped, and says so); to add it:  sudo apt-get install -y$want" >&2
    exit 0
fi
if [ -n "$again" ]; then echo "error: installed, but still missing:$need" >&2
else echo "error: missing:$need" >&2; fi
echo "install it with:  sudo apt-get install -y$need" >&2
exit 2
