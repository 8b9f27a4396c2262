#!/bin/sh
# threshold-study.sh - does a verdict near a threshold hold still? A reference stage, slowed on
# purpose to about 0.9x and then 1.1x of its threshold, graded N times each: the first should
# fail every time and the second pass every time.
# usage: scripts/threshold-study.sh N [LAB [STAGE]]     (e.g. 20; needs solutions/)
#   LAB 01 (default): lab 01's `unrolled`. LAB 04 (on a GPU): `mv_warp` (default), `mv_block`, or a
#   sum's stage (`interleaved`, `strided`, `sequential`). LAB 11 (on a GPU): `tiled` (default) or
#   another stage.
#
# How it slows: the submission runs the reference's function first on a part of the problem, its
# size the factor's fraction f' (a matrix-vector product on the first m x (f' n) elements of A read
# as a matrix of m short rows, every row at a full call's efficiency; a sum on the first f' n
# elements; a convolution on the first f' m rows), then on the whole as many times as the factor's
# whole part (the last writes the right answer), so a call costs (1 + f) times the reference's. The
# reference's own fraction of the ceiling F is measured first (five gradings); then
# 1 + f = F / (0.9 T) and F / (1.1 T), T the fraction the stage needed in those gradings
# (thresholds.conf's, or lower where lab 01's one-chain rule relaxed it).
# Only that stage is graded (STAGE=); TARGETS="1.1" runs one of the two; REFERENCE_FRACTION=0.244
# skips the reference's five gradings where its fraction on this machine is known (a GPU's minutes
# are scarce). Logs: build/stability/threshold-study/.
set -u
n=${1:-20}
case ${2:-01} in
    01) lab=01-cpu-matvec stage=unrolled fn=matvec_unrolled src=matvec.c kind=matvec ;;
    04) lab=04-warp-reduction stage=${3:-mv_warp} src=reduce.cu
        case $stage in
            mv_thread|mv_warp|mv_block) fn=matvec_${stage#mv_} kind=matvec ;;
            interleaved|strided|sequential|shuffle|vectorized) fn=reduce_$stage kind=sum ;;
            *) echo "threshold-study.sh: lab 04's matvec or sum stages" >&2; exit 2 ;;
        esac ;;
    11) lab=11-convolution stage=${3:-tiled} src=convolution.cu fn=conv_${3:-tiled} kind=conv ;;
    *) echo "threshold-study.sh: lab 01, 04 or 11" >&2; exit 2 ;;
esac
[ -f solutions/$lab/$src ] || src=$(cd solutions/$lab && ls *.c *.cu 2>/dev/null | head -n 1)
export STAGE=$stage
out=build/stability/threshold-study
rm -rf "$out" && mkdir -p "$out"
threshold=$(sed -n "s/^$stage *= *\([0-9.]*\).*/\1/p" grading/$lab/thresholds.conf)
mean_of() { # mean of the speed check's "$2" for $stage over the runs in build/stability/$1
    cat build/stability/$1/run-*/$lab.json |
        sed -n "s/.*\"stage\": \"$stage\",\"check\": \"speed\",\"reason\": \"[a-z-]*\".*\"$2\": \([0-9.e+-]*\).*/\1/p" |
        awk '{ s += $1; k++ } END { if (k) printf "%.4f", s / k }'
}
slowed() { # $1: factor (1 + f); writes a labs/-shaped folder $out/work-$1
    mkdir -p "$out/work-$1/$lab"
    sed "s/^\(extern \"C\" \)\{0,1\}void $fn(/static void reference_$fn(/" solutions/$lab/$src > "$out/work-$1/$lab/$src"
    case $src in *.cu) linkage='extern "C" ' ;; *) linkage= ;; esac
    case $kind in
        matvec) params='int m, int n, const double *A, const double *x, double *y'
                part='int part = (int)((double)n * fraction);'
                first='reference_'$fn'(m, part, A, x, y)' whole='reference_'$fn'(m, n, A, x, y)' ;;
        sum)    params='int n, const float *in, float *out, float *work'
                part='int part = (int)((double)n * fraction);'
                first='reference_'$fn'(part, in, out, work)' whole='reference_'$fn'(n, in, out, work)' ;;
        conv)   params='int m, int n, int K, const float *in, const float *filter, float *out'
                part='int part = (int)((double)m * fraction);'
                first='reference_'$fn'(part, n, K, in, filter, out)' whole='reference_'$fn'(m, n, K, in, filter, out)' ;;
    esac
    cat >> "$out/work-$1/$lab/$src" <<C

/* Slowed for the threshold study (scripts/threshold-study.sh): the factor's fraction of the
 * problem first, then the whole as many times as the factor's whole part: the last call writes
 * the right answer. */
${linkage}void $fn($params)
{
    double factor = $1, fraction = factor - (int)factor;
    $part
    if (part > 0) $first; /* a GPU launch of no work is an error */
    for (int k = 0; k < (int)factor; k++) $whole;
}
C
}
if [ -n "${REFERENCE_FRACTION:-}" ]; then # measured before on this machine: the 5 gradings saved
    F=$REFERENCE_FRACTION
    echo "reference $stage: fraction $F of the ceiling (REFERENCE_FRACTION); threshold $threshold"
else
    sh scripts/stability.sh ${lab%%-*} 5 solutions > "$out/reference.txt" || exit 2
    F=$(mean_of $lab fraction)
    # the fraction the stage needed in those runs (below thresholds.conf's where a second roof relaxes it)
    required=$(mean_of $lab required)
    [ -n "$required" ] && threshold=$required
    echo "reference $stage: mean fraction $F of the ceiling over 5 runs; threshold $threshold"
fi
for target in ${TARGETS:-0.9 1.1}; do
    k=$(awk -v F="$F" -v T="$threshold" -v t="$target" 'BEGIN { k = F / (t * T); if (k < 1) k = 1; printf "%.3f", k }')
    slowed "$k"
    echo "slowed to ${target}x of the threshold (a call does ${k}x the reference's work):"
    sh scripts/stability.sh ${lab%%-*} "$n" "$out/work-$k" | grep -E "^stage|^$stage"
done
