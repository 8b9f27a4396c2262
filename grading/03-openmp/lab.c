/* lab.c - lab 03, OpenMP: matvec, a dot product, and matrix multiply on every core, each
 * checked at several thread counts and judged against the machine's ceiling at full thread
 * count and against a one-thread rate the grader measures itself (the one-thread roof, or the
 * one-thread baseline, baseline.c; never the code's own one-thread run). See common/both/lab.h for
 * the fields. */
#include <float.h>
#include <math.h>

#include "lab.h"
#include "parallel.h"
#include "problems.h"

/* ---------------------------------------------------------------- dot: s = x . y */

enum { DX, DY, DS };

static void dot_layout(lab_shape s, lab_buf *b)
{
    b[DX] = (lab_buf){"x", ROLE_IN, F64, 1, (size_t)s.n};
    b[DY] = (lab_buf){"y", ROLE_IN, F64, 1, (size_t)s.n};
    b[DS] = (lab_buf){"s", ROLE_OUT, F64, 1, 1};
}
static double dot_flops(lab_shape s) { return 2.0 * s.n; }
static double dot_bytes(lab_shape s) { return 16.0 * s.n; }

/* In long double; any summation order in double is within n eps sum |x_i y_i| (Higham 3.1). */
static void dot_reference(lab_shape s, void *const *buf, double *ref, double *bound)
{
    const double *x = buf[DX], *y = buf[DY];
    long double acc = 0, mag = 0;
    for (int i = 0; i < s.n; i++) {
        acc += (long double)x[i] * y[i];
        mag += fabsl((long double)x[i] * y[i]);
    }
    *ref = (double)acc;
    *bound = (double)(s.n * (long double)DBL_EPSILON * mag);
}

/* Tiny sizes (fewer elements than threads), odd ones, and long vectors a race can't miss: each
 * thread's share takes far longer than starting the team. Timed: x and y four times the LLC. */
static int dot_cases(rng *r, size_t llc, lab_case *out)
{
    int n[] = {1, 2, 3, 7, 1001, 2 * rng_int(r, 500, 5000) + 1, 100003, rng_int(r, 1 << 20, 1 << 21)};
    int k = 0;
    for (int i = 0; i < 8; i++) out[k++] = (lab_case){{0, n[i], 0}, 0};
    int timed = (int)fmax(4.0 * (double)llc, 64.0 * (1 << 20)) / 16;
    out[k++] = (lab_case){{0, timed + rng_int(r, 0, 1023), 0}, 1};
    return k;
}

static int dot_bench(size_t llc, lab_case *out)
{
    int n[] = {1 << 12, 1 << 16, 1 << 20, 1 << 24, (int)fmax(4.0 * (double)llc, 64.0 * (1 << 20)) / 16};
    for (int i = 0; i < 5; i++) out[i] = (lab_case){{0, n[i], 0}, 1};
    return 5;
}

/* ---------------------------------------------------------------- matrix multiply sizes */

/* The collapse(2) kernel is timed at 512^3; the blocked one where blocking is what makes the code
 * fast (as lab 02's blocked stage): 256 x s x s with B twice the last-level cache, where code that
 * re-reads B for every row of A shares one memory bus between the threads. */
static int matmul_cases(rng *r, size_t llc, lab_case *out)
{
    int n = gemm_edge_cases(r, out);
    (void)llc;
    out[n++] = (lab_case){{3, 200, 50}, 0}; /* fewer rows than a team of four: collapse must share columns */
    out[n++] = (lab_case){{512, 512, 512}, 1};
    return n;
}

static int blocked_cases(rng *r, size_t llc, lab_case *out) { return gemm_past_llc_cases(r, llc, out); }

/* ---------------------------------------------------------------- problems and stages */

static const lab_problem matvec = {
    .name = "matvec", .nbufs = MATVEC_NBUFS, .out = MATVEC_Y, .vary = MATVEC_X, .layout = matvec_layout,
    .flops = matvec_flops, .bytes = matvec_bytes, .reference = matvec_reference, .reference_at = matvec_reference_at, .lo = -1, .hi = 1,
    .cases = matvec_cases, .bench_cases = matvec_bench_cases,
};

static const lab_problem dot = {
    .name = "dot", .nbufs = 3, .out = DS, .vary = DX, .layout = dot_layout, .flops = dot_flops,
    .bytes = dot_bytes, .reference = dot_reference, .lo = -1, .hi = 1, .cases = dot_cases, .bench_cases = dot_bench,
};

static const lab_problem matmul = DGEMM_PROBLEM("gemm-512", matmul_cases, gemm_blocked_bench);
static const lab_problem blocked = DGEMM_PROBLEM("gemm-past-llc", blocked_cases, gemm_blocked_bench);

#ifdef LAB_RUNNER
static void matvec_run(lab_call *c)
{
    omp_matvec(c->s.m, c->s.n, c->buf[MATVEC_A], c->buf[MATVEC_X], c->buf[MATVEC_Y]);
}
static void dot_run(lab_call *c) { *(double *)c->buf[DS] = omp_dot(c->s.n, c->buf[DX], c->buf[DY]); }
static void matmul_run(lab_call *c)
{
    omp_matmul(c->s.m, c->s.n, c->s.k, c->buf[GEMM_A], c->buf[GEMM_B], c->buf[GEMM_C]);
}
static void blocked_run(lab_call *c)
{
    omp_blocked(c->s.m, c->s.n, c->s.k, c->buf[GEMM_A], c->buf[GEMM_B], c->buf[GEMM_C]);
}
#endif

#define STAGE(id, what, problem) {#id, "omp_" #id, what, &problem, NULL, NULL, RUNNER_ONLY(id##_run), NULL, NULL}

static const lab_stage stages[] = {
    STAGE(matvec, "rows shared out with parallel for", matvec),
    STAGE(dot, "partial sums combined by reduction(+:s)", dot),
    STAGE(matmul, "collapse(2) over rows and columns of C", matmul),
    STAGE(blocked, "lab 02's blocked kernel, blocks of C shared out", blocked),
};

const lab LAB = {
    .id = "03-openmp",
    .title = "OpenMP: parallel matvec, dot product and matrix multiply",
    .source = "parallel.c",
    .threads = 0, /* all cores */
    .stages = stages,
    .nstages = sizeof stages / sizeof stages[0],
};
