#!/bin/sh
# threshold-study.sh - does a verdict near a threshold hold still? A reference stage, slowed on
# purpose to about 0.9x and then 1.1x of its threshold, graded N times each: the first should
# fail every time and the second pass every time.
# usage: scripts/threshold-study.sh N [LAB [STAGE|all]]     (e.g. 20; needs solutions/)
#   LAB 01 (default): lab 01's `unrolled` (default), `rows` or `contiguous`. LAB 02: any one stage;
#   LAB 03: `matvec` (as lab 01's), `matmul` or `blocked` (C += A B: the real call first, the others into a C of their own;
#   the factor comes from the fraction of OpenBLAS only, so where `<stage>_speedup` binds first, as
#   lab 03's `blocked` does, give REFERENCE_FRACTION the fraction at which the copies land at the
#   speedup wanted).
#   LAB 04 (on a GPU): `mv_warp` (default), `mv_block`, or a
#   sum's stage (`interleaved` ... `vectorized`). LABs 05-12 (on a GPU): any stage but the first
#   (default: the second). `all` slows every stage of the lab, each to its own
#   factor, in one file graded whole: N gradings study them all at once (a GPU's minutes are scarce).
#
# How it slows: the submission runs the reference's function first on a part of the problem, its
# size the factor's fraction f' (the first f' of the rows, or of n for a sum or a scan), then on
# the whole as many times as the factor's whole part (the last writes the right answer), so a call
# costs (1 + f) times the reference's. SGEMM (lab 06) reads C (beta): there the first whole call is
# the real one and the others, the part too, have alpha 0 and beta 1, which leave C as it is. The
# reference's own fraction of the ceiling F is measured first (five gradings); then
# 1 + f = F / (0.9 T) and F / (1.1 T), T the fraction the stage needed in those gradings
# (thresholds.conf's, or lower where lab 01's one-chain rule relaxed it). TARGETS="1.1" runs one of
# the two; REFERENCE_FRACTION=0.244 (one stage) or REFERENCE_FRACTIONS="three_pass=0.58 warp=0.79"
# skips the reference's five gradings where its fractions on this machine are known. Each copy is
# graded once, twice on a GPU, first and its factors corrected to where the stages landed
# (CALIBRATE=N rounds; 0: not; a CPU lab's default 0).
# Logs: build/stability/threshold-study/.
set -u
n=${1:-20}
stage=${3:-}
. common/tools/lib.sh
lab=$(ls -d grading/${2:-01}-*/ 2>/dev/null | head -n 1 | sed 's|grading/||; s|/$||')
case $lab in # the labs whose problems kind_of and wrapper (below) know how to call on a part
    01-*) stage=${stage:-unrolled} ;; 04-*) stage=${stage:-mv_warp} ;; 0[5-9]-*|1[012]-*) ;;
    02-*) stage=${stage:-blocked} ;; # every stage a GEMM
    03-*) case $stage in matvec|matmul|blocked) ;; # y = A x, or the GEMM stages, named
              *) echo "threshold-study.sh: lab 03's stage: matvec, matmul or blocked" >&2; exit 2 ;; esac ;;
    *) echo "threshold-study.sh: lab 01-12" >&2; exit 2 ;;
esac
make --no-print-directory -s tools >/dev/null || exit 2
# The lab's --list: the file its students edit, and each stage's function.
mkdir -p build/tmp && build/grading/$lab/grade --list --lab-dir grading/$lab --build build > "build/tmp/list-$lab.txt" || exit 2
src=$(lab_source build "$lab")
[ -n "$stage" ] || stage=$(sed -n '3p' "build/tmp/list-$lab.txt" | awk '{ print $2 }') # default: the second stage
[ "$stage" = all ] || awk -v s="$stage" 'NR > 1 && $2 == s { found = 1 } END { exit !found }' "build/tmp/list-$lab.txt" ||
    { echo "threshold-study.sh: $lab has no stage '$stage'" >&2; exit 2; }
conf=grading/$lab/thresholds.conf
# every stage with a threshold
if [ "$stage" = all ]; then
    stages=$(sed -n 's/^\([a-z0-9_]*\) *= *[0-9.][0-9.]*.*/\1/p' "$conf" | grep -v '^points_\|^gpu_arch\|^overlap_\|^partial_from\|^impossible_margin\|^size_past_\|^clock_slack_us\|^min_\|^max_\|^trials\|^timeout_s\|^output_bytes' | tr '\n' ' ')
    only=
else
    stages=$stage only=$stage
fi
# The function of a stage, and what kind of problem it is (how a part of it is called).
fn_of() {
    awk -v s="$1" 'NR > 1 && $2 == s { print $3 }' "build/tmp/list-$lab.txt"
}
kind_of() {
    case $lab:$1 in 01-*|03-*:matvec|04-*:mv_*) echo matvec ;; 0[23]-*) echo gemm ;; 04-*:vector_add) echo add ;; 04-*) echo sum ;; *) echo ${lab#*-} ;; esac
}
out=build/stability/threshold-study
rm -rf "$out" && mkdir -p "$out"
# mean of the speed check's "$3" for stage $2 over the runs in build/stability/$1
mean_of() {
    cat build/stability/$1/run-*/$1.json |
        sed -n "s/.*\"stage\": \"$2\",\"check\": \"speed\",\"reason\": \"[a-z-]*\".*\"$3\": \([0-9.e+-]*\).*/\1/p" |
        awk '{ s += $1; k++ } END { if (k) printf "%.4f", s / k }'
}
# The wrapper that slows stage $1's function by factor $2 (1 + f).
wrapper() {
    fn=$(fn_of "$1") r=reference_$(fn_of "$1") k=$2
    case $src in *.cu) linkage='extern "C" ' ;; *) linkage= ;; esac
    case $(kind_of "$1") in
        matvec) params='int m, int n, const double *A, const double *x, double *y'
                [ "$1" = rows ] && params='int m, int n, const double *const *A, const double *x, double *y' # a row an allocation
                part='int part = (int)((double)n * fraction);'
                first="$r(m, part, A, x, y)" whole="$r(m, n, A, x, y)" ;;
        sum)    params='int n, const float *in, float *out, float *work'
                part='int part = (int)((double)n * fraction);'
                first="$r(part, in, out, work)" whole="$r(n, in, out, work)" ;;
        add)    params='int n, const float *a, const float *b, float *c'
                part='int part = (int)((double)n * fraction);'
                first="$r(part, a, b, c)" whole="$r(n, a, b, c)" ;;
        scan)   params='int n, const int *in, int *out, int *work'
                part='int part = (int)((double)n * fraction);'
                first="$r(part, in, out, work)" whole="$r(n, in, out, work)" ;;
        convolution) params='int m, int n, int K, const float *in, const float *filter, float *out'
                part='int part = (int)((double)m * fraction);'
                first="$r(part, n, K, in, filter, out)" whole="$r(m, n, K, in, filter, out)" ;;
        transpose|softmax) params='int m, int n, const float *in, float *out'
                part='int part = (int)((double)m * fraction);'
                first="$r(part, n, in, out)" whole="$r(m, n, in, out)" ;;
        wmma)   params='int M, int N, int K, const lab_half *A, const lab_half *B, float *C'
                part='int part = (int)((double)M * fraction) / 16 * 16; /* WMMA: multiples of 16 */'
                first="$r(part, N, K, A, B, C)" whole="$r(M, N, K, A, B, C)" ;;
        hopper-gemm) params='int M, int N, int K, const lab_half *A, const lab_half *B, float *C'
                part='int part = (int)((double)M * fraction) / 256 * 256; /* lab 12: M a multiple of 256 */'
                first="$r(part, N, K, A, B, C)" whole="$r(M, N, K, A, B, C)" ;;
        streams) # lab 05: a state made once (create), run, freed (destroy); the part has host
            # arrays of its own (registering x and y twice would fail, and unregister the whole's)
            stem=${fn%_create} args='n, x, y, c' params='int n, const float *x, float *y, const float *c'
            if [ "$1" = matvec ]; then # y = A x: the part is the first rows, on host arrays of its own
                cat <<C

typedef struct { double factor; void *whole, *part; double *Ap, *xp, *yp; } slowed_matvec;
extern "C" void *matvec_create(int m, int n, const double *A, const double *x, double *y)
{
    slowed_matvec *s = (slowed_matvec *)calloc(1, sizeof *s);
    s->factor = $k;
    int part = (int)((double)m * (s->factor - (int)s->factor));
    s->whole = reference_matvec_create(m, n, A, x, y);
    if (part > 0) {
        s->Ap = (double *)calloc((size_t)part * n, sizeof(double)), s->xp = (double *)calloc(n, sizeof(double));
        s->yp = (double *)calloc(part, sizeof(double));
        s->part = reference_matvec_create(part, n, s->Ap, s->xp, s->yp);
    }
    return s;
}
extern "C" void matvec_run(void *p)
{
    slowed_matvec *s = (slowed_matvec *)p;
    if (s->part) reference_matvec_run(s->part);
    for (int k = 0; k < (int)s->factor; k++) reference_matvec_run(s->whole);
}
extern "C" void matvec_destroy(void *p)
{
    slowed_matvec *s = (slowed_matvec *)p;
    if (s->part) reference_matvec_destroy(s->part);
    reference_matvec_destroy(s->whole);
    free(s->Ap), free(s->xp), free(s->yp), free(s);
}
C
                return
            fi
            case $1 in pipelined|graph) args='n, chunks, streams, x, y, c'
                params='int n, int chunks, int streams, const float *x, float *y, const float *c' ;; esac
            cat <<C

typedef struct { double factor; void *whole, *part; float *xp, *yp; } slowed_$stem;
extern "C" void *${stem}_create($params)
{
    slowed_$stem *s = (slowed_$stem *)calloc(1, sizeof *s);
    s->factor = $k;
    int part = (int)((double)n * (s->factor - (int)s->factor));
    s->whole = reference_${stem}_create($args);
    if (part > 0) {
        s->xp = (float *)calloc(part, sizeof(float)), s->yp = (float *)calloc(part, sizeof(float));
        { int n = part; const float *x = s->xp; float *y = s->yp; s->part = reference_${stem}_create($args); }
    }
    return s;
}
extern "C" void ${stem}_run(void *p)
{
    slowed_$stem *s = (slowed_$stem *)p;
    if (s->part) reference_${stem}_run(s->part);
    for (int k = 0; k < (int)s->factor; k++) reference_${stem}_run(s->whole);
}
extern "C" void ${stem}_destroy(void *p)
{
    slowed_$stem *s = (slowed_$stem *)p;
    if (s->part) reference_${stem}_destroy(s->part);
    reference_${stem}_destroy(s->whole);
    free(s->xp), free(s->yp), free(s);
}
C
            return ;;
        gemm) # labs 02 and 03: C += A B, so the real call first, then the others into a C of their own
            cat <<C

void $fn(int m, int n, int k, const double *A, const double *B, double *C)
{
    static double *scratch; /* the C of the calls that only cost time, kept between calls */
    static size_t have;
    double factor = $k, fraction = factor - (int)factor;
    int part = (int)((double)m * fraction);
    $r(m, n, k, A, B, C);
    if ((size_t)m * n > have) {
        free(scratch);
        have = (scratch = (double *)calloc((size_t)m * n, sizeof *scratch)) ? (size_t)m * n : 0;
        if (!scratch) return;
    }
    for (int r = 1; r < (int)factor; r++) $r(m, n, k, A, B, scratch);
    if (part > 0) $r(part, n, k, A, B, scratch);
}
C
            return ;;
        tiling) # C is read (beta): the real call first, then calls that leave C as it is
            cat <<C

${linkage}void $fn(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    double factor = $k, fraction = factor - (int)factor;
    int part = (int)((double)M * fraction);
    $r(M, N, K, alpha, A, B, beta, C);
    for (int k = 1; k < (int)factor; k++) $r(M, N, K, 0.0f, A, B, 1.0f, C); /* C = 0 A B + 1 C */
    if (part > 0) $r(part, N, K, 0.0f, A, B, 1.0f, C);
}
C
            return ;;
    esac
    cat <<C

${linkage}void $fn($params)
{
    double factor = $k, fraction = factor - (int)factor;
    $part
    if (part > 0) $first; /* a GPU launch of no work is an error */
    for (int k = 0; k < (int)factor; k++) $whole;
}
C
}
# A labs/-shaped folder $out/work-$1 whose stages run $2 ("stage=factor ...").
slowed() {
    mkdir -p "$out/work-$1/$lab"
    for pair in $2; do
        fn=$(fn_of "${pair%%=*}")
        case $(kind_of "${pair%%=*}") in
            streams) stem=${fn%_create} # create, run and destroy: each the reference's, renamed
                for f in ${stem}_create ${stem}_run ${stem}_destroy; do
                    printf "%s\n" "s/^extern \"C\" \(void \*\{0,1\}\) *$f(/static \1reference_$f(/"
                done ;;
            *) echo "s/^\(extern \"C\" \)\{0,1\}void $fn(/static void reference_$fn(/" ;;
        esac
    done > "$out/rename.sed"
    sed -f "$out/rename.sed" "solutions/$lab/$src" > "$out/work-$1/$lab/$src"
    printf '\n/* Slowed for the threshold study (scripts/threshold-study.sh): the factor'"'"'s fraction of\n * the problem first, then the whole as many times as the factor'"'"'s whole part. */\n' >> "$out/work-$1/$lab/$src"
    for pair in $2; do wrapper "${pair%%=*}" "${pair#*=}" >> "$out/work-$1/$lab/$src"; done
}
# The reference's fractions F and the fractions T its stages needed, "stage=value" pairs.
F= T=
if [ -n "${REFERENCE_FRACTION:-}${REFERENCE_FRACTIONS:-}" ]; then # measured before on this machine
    F=${REFERENCE_FRACTIONS:-$stage=${REFERENCE_FRACTION:-}}
    for s in $stages; do T="$T $s=$(sed -n "s/^$s *= *\([0-9.]*\).*/\1/p" "$conf")"; done
else
    STAGE=$only sh scripts/stability.sh ${lab%%-*} 5 solutions > "$out/reference.txt" || exit 2
    for s in $stages; do
        required=$(mean_of $lab $s required)
        [ -n "$required" ] || required=$(sed -n "s/^$s *= *\([0-9.]*\).*/\1/p" "$conf")
        F="$F $s=$(mean_of $lab $s fraction)" T="$T $s=$required"
    done
fi
value() { echo "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
for s in $stages; do echo "reference $s: fraction $(value $s "$F") of the ceiling; threshold $(value $s "$T")"; done
for target in ${TARGETS:-0.9 1.1}; do
    pairs=
    for s in $stages; do
        k=$(awk -v F="$(value $s "$F")" -v T="$(value $s "$T")" -v t="$target" \
            'BEGIN { k = F / (t * T); if (k < 1) k = 1; printf "%.3f", k }')
        pairs="$pairs $s=$k"
    done
    slowed "$target" "$pairs"
    # The work does not always scale with the factor (a repeated call may find its inputs in the
    # L2: lab 11's coarsened copy meant for 0.9x read 0.99x). One grading of the copy measures
    # where each stage landed, and its factor is corrected by that ratio (CALIBRATE=0: not). On a
    # GPU only by default: a CPU grading's 5-10% noise makes one grading a poor measure.
    # The cost is not always proportional either (lab 08's vectorized copy: 2.28 times the reference's
    # time at a factor of 1.865, 1.64 at 1.525), so the correction is made twice (CALIBRATE=N rounds):
    # the first in proportion, the next along the line through the last two gradings (secant).
    case $lab in 0[1-3]-*) calibrate=${CALIBRATE:-0} ;; *) calibrate=${CALIBRATE:-2} ;; esac
    seen= # "stage=k:got" of the previous round
    round=0
    while [ "$round" -lt "$calibrate" ]; do
        round=$((round + 1))
        STAGE=$only sh scripts/stability.sh ${lab%%-*} 1 "$out/work-$target" > "$out/calibrate-$target-$round.txt" 2>&1
        fixed= now=
        for pair in $pairs; do
            s=${pair%%=*} k=${pair#*=} got=$(mean_of $lab ${pair%%=*} fraction)
            before=$(value $s "$seen")
            k=$(awk -v k="$k" -v got="${got:-0}" -v t="$target" -v T="$(value $s "$T")" -v F="$(value $s "$F")" \
                    -v kb="${before%%:*}" -v gb="${before#*:}" '
                BEGIN {
                    want = t * T
                    if (got <= 0) { printf "%.3f", k; exit }
                    next_k = k * got / want                       # in proportion
                    if (kb != "" && gb > 0 && kb != k) {          # along the line through both gradings
                        e = F / got; eb = F / gb; et = F / want
                        if ((e - eb) / (k - kb) > 0) next_k = k + (et - e) * (k - kb) / (e - eb)
                    }
                    if (next_k < 1) next_k = 1
                    printf "%.3f", next_k
                }')
            fixed="$fixed $s=$k" now="$now $s=${pair#*=}:${got:-0}"
        done
        echo "grading $round at${pairs}; corrected to${fixed}"
        seen=$now pairs=$fixed
        slowed "$target" "$pairs"
    done
    echo "slowed to ${target}x of the threshold (a call does this many times the reference's work:$pairs):"
    STAGE=$only sh scripts/stability.sh ${lab%%-*} "$n" "$out/work-$target" |
        awk -v keep=" $stages " 'NR == 1 || index(keep, " " $1 " ")' | tee "$out/result-$target.txt"
    # every grading's report and results, kept beside the table
    mkdir -p "$out/runs-$target" && cp -r build/stability/$lab/run-* "$out/runs-$target/" 2>/dev/null
done
