#!/bin/sh
# threshold-study.sh - does a verdict near a threshold hold still? Lab 01's reference `unrolled`,
# slowed on purpose to about 0.9x and then 1.1x of its threshold, graded N times each: the first
# should fail every time and the second pass every time.
# usage: scripts/threshold-study.sh N        (e.g. 20; needs solutions/)
#
# How it slows: the submission runs the reference's kernel once over all rows, then again over
# the first fraction f of them (the same values written again: still correct), so a call costs
# (1 + f) times the reference's. The reference's own fraction of the ceiling F is measured first
# (five gradings); then 1 + f = F / (0.9 T) and F / (1.1 T), T the threshold in thresholds.conf.
# Logs: build/stability/threshold-study/.
set -u
n=${1:-20}
lab=01-cpu-matvec stage=unrolled
out=build/stability/threshold-study
rm -rf "$out" && mkdir -p "$out"
threshold=$(sed -n "s/^$stage *= *\([0-9.]*\).*/\1/p" grading/$lab/thresholds.conf)
fraction() { # mean fraction of the ceiling of $stage over the runs in build/stability/$1
    cat build/stability/$1/run-*/$lab.json |
        sed -n "s/.*\"stage\": \"$stage\",\"check\": \"speed\",\"reason\": \"[a-z-]*\".*\"fraction\": \([0-9.e+-]*\).*/\1/p" |
        awk '{ s += $1; k++ } END { if (k) printf "%.4f", s / k }'
}
slowed() { # $1: factor (1 + f); writes a labs/-shaped folder $out/work-$1
    mkdir -p "$out/work-$1/$lab"
    sed 's/^void matvec_unrolled(/static void reference_unrolled(/' solutions/$lab/matvec.c > "$out/work-$1/$lab/matvec.c"
    cat >> "$out/work-$1/$lab/matvec.c" <<C

/* Slowed for the threshold study: the whole product, then the first rows again. */
void matvec_unrolled(int m, int n, const double *A, const double *x, double *y)
{
    reference_unrolled(m, n, A, x, y);
    reference_unrolled((int)((double)m * ($1 - 1.0)), n, A, x, y);
}
C
}
sh scripts/stability.sh 01 5 solutions > "$out/reference.txt" || exit 2
F=$(fraction $lab)
echo "reference $stage: mean fraction $F of the ceiling over 5 runs; threshold $threshold"
for target in 0.9 1.1; do
    k=$(awk -v F="$F" -v T="$threshold" -v t="$target" 'BEGIN { k = F / (t * T); if (k < 1) k = 1; printf "%.3f", k }')
    slowed "$k"
    echo "slowed to ${target}x of the threshold (a call does ${k}x the reference's work):"
    sh scripts/stability.sh 01 "$n" "$out/work-$k" | grep -E "^stage|^$stage"
done
