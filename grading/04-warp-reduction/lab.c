/* lab.c - lab 04: vector add, then a sum of floats five ways, then y = A x with threads, warps
 * and blocks per row. Three problems, nine stages; the harness does the rest (common/both/lab.h). */
#include <math.h>
#include <stddef.h>

#include "lab.h"
#include "reduce.h"
#include "problems.h"
#include "proto.h"
#ifdef LAB_RUNNER
#include "gpu.h"
#endif

/* ---------------------------------------------------------------- vector add: c = a + b */

enum { VA, VB, VC };

static void add_layout(lab_shape s, lab_buf *b)
{
    b[VA] = (lab_buf){"a", ROLE_IN, F32, 1, (size_t)s.n};
    b[VB] = (lab_buf){"b", ROLE_IN, F32, 1, (size_t)s.n};
    b[VC] = (lab_buf){"c", ROLE_OUT, F32, 1, (size_t)s.n};
}
static double add_flops(lab_shape s) { return s.n; }
static double add_bytes(lab_shape s) { return 12.0 * s.n; }

/* a + b in double is exact; one float rounding is at most u = 2^-24 of it. */
static void add_reference(lab_shape s, void *const *buf, double *ref, double *bound)
{
    const float *a = buf[VA], *b = buf[VB];
    for (int i = 0; i < s.n; i++) {
        ref[i] = (double)a[i] + b[i];
        bound[i] = ldexp(fabs(ref[i]), -24);
    }
}

static void add_reference_at(lab_shape s, void *const *buf, const uint64_t *at, size_t count, double *ref, double *bound)
{
    const float *a = buf[VA], *b = buf[VB];
    for (size_t k = 0; k < count; k++) {
        ref[at[k]] = (double)a[at[k]] + b[at[k]];
        bound[at[k]] = ldexp(fabs(ref[at[k]]), -24);
    }
    (void)s;
}

/* 1, the two sides of a warp, a prime near a million, a random size; 2^27 timed (1.5 GiB a call). */
static int vector_cases(rng *r, size_t l2, lab_case *out)
{
    int n[] = {1, 31, 33, 999983, rng_int(r, 1000, 100000), 1 << 27};
    for (int i = 0; i < 6; i++) out[i] = (lab_case){{0, n[i], 0}, i == 5};
    (void)l2;
    return 6;
}

/* From a size that can't fill the GPU (the blog's finding) to one far beyond its L2. */
static int size_sweep(size_t l2, lab_case *out)
{
    static const int n[] = {1 << 12, 1 << 16, 1 << 20, 1 << 24, 1 << 27, 1 << 28};
    for (int i = 0; i < 6; i++) out[i] = (lab_case){{0, n[i], 0}, 1};
    (void)l2;
    return 6;
}

static const lab_problem vadd = {
    .name = "vector_add", .nbufs = 3, .out = VC, .vary = VA, .layout = add_layout, .flops = add_flops,
    .bytes = add_bytes, .reference = add_reference, .reference_at = add_reference_at, .lo = -1, .hi = 1, .cases = vector_cases,
    .bench_cases = size_sweep,
};

/* ---------------------------------------------------------------- sum: out = in[0] + ... + in[n-1] */

enum { SIN, SOUT, SWORK };

static void sum_layout(lab_shape s, lab_buf *b)
{
    b[SIN] = (lab_buf){"in", ROLE_IN, F32, 1, (size_t)s.n};
    b[SOUT] = (lab_buf){"out", ROLE_OUT, F32, 1, 1};
    b[SWORK] = (lab_buf){"work", ROLE_SCRATCH, F32, 1, (size_t)(s.n > 1024 ? s.n : 1024)};
}
static double sum_flops(lab_shape s) { return s.n; }
static double sum_bytes(lab_shape s) { return 4.0 * s.n; }

/* The float bound for any summation order, gamma_{n-1} sum |x_i|, is useless at n = 2^28 (n u > 1:
 * a kernel that dropped a whole block would pass). So the inputs are multiples of 2^-6 in
 * [-1, 1): every partial sum is then a multiple of 2^-6, exact in float while below 2^18 in
 * magnitude, and for zero-mean inputs of these sizes partial sums stay near sqrt(n) ~ 2^14. Every
 * order is then exact, and the grader allows half a quantum: a missing or doubled element fails. */
#define SUM_BOUND 0x1p-7 /* half the quantum: a missing or doubled element fails */
static void sum_reference(lab_shape s, void *const *buf, double *ref, double *bound)
{
    const float *x = buf[SIN];
    double sum = 0; /* exact in any order: multiples of 2^-6 below 2^40 */
#pragma omp parallel for reduction(+ : sum)
    for (int i = 0; i < s.n; i++) sum += x[i];
    ref[0] = sum;
    bound[0] = SUM_BOUND;
}

/* A timed call's reference from the seed of its input: the sum, never the gigabyte itself. */
static void sum_reference_seeded(const lab_problem *p, lab_shape s, uint64_t seed, double *ref, double *bound)
{
    ref[0] = vary_sum(F32, (size_t)s.n, seed, p->lo, p->hi, p->quantum);
    bound[0] = SUM_BOUND;
}

static int sum_cases(rng *r, size_t l2, lab_case *out)
{
    int n[] = {1, 31, 33, 257, 999983, rng_int(r, 1000, 100000), 2 * rng_int(r, 50000, 500000) + 1, 1 << 28};
    for (int i = 0; i < 8; i++) out[i] = (lab_case){{0, n[i], 0}, i == 7};
    (void)l2;
    return 8;
}

static const lab_problem sum = {
    .name = "sum", .nbufs = 3, .out = SOUT, .vary = SIN, .layout = sum_layout, .flops = sum_flops,
    .bytes = sum_bytes, .reference = sum_reference, .reference_seeded = sum_reference_seeded, .lo = -1, .hi = 1, .quantum = 0x1p-6, .cases = sum_cases,
    .bench_cases = size_sweep,
};

/* ---------------------------------------------------------------- matvec: y = A x in double */

enum { MA = MATVEC_A, MX = MATVEC_X, MY = MATVEC_Y };

/* The blog's shapes (few rows many columns, and the opposite), edges, and 16384^2 (2 GiB) timed. */
static int mv_cases(rng *r, size_t l2, lab_case *out)
{
    lab_shape s[] = {{1, 1, 0},     {10, 10000, 0},  {10000, 10, 0}, {31, 33, 0}, {1, 4097, 0},
                     {4097, 1, 0},  {1000, 1003, 0}, {rng_int(r, 2, 3000), rng_int(r, 2, 3000), 0}, {16384, 16384, 0}};
    for (int i = 0; i < 9; i++) out[i] = (lab_case){s[i], i == 8};
    (void)l2;
    return 9;
}

/* mv_block's judged shape: 512 rows of 2^19 (2 GiB), few long rows, where a block per row is what
 * makes the code fast. 512 warps, one a row, leave an H100's 132 SMs with 4 warps each, too few
 * loads in flight to stream memory; 512 blocks of several warps fill them. At 16384^2 a warp per
 * row already streams at the copy rate, and mv_block running mv_warp's code passed there (issue 24,
 * docs/BENCHMARKS.md). The correctness cases are mv_cases'. */
static int mv_few_rows_cases(rng *r, size_t l2, lab_case *out)
{
    int n = mv_cases(r, l2, out);
    out[n - 1] = (lab_case){{512, 1 << 19, 0}, 1};
    return n;
}

static int mv_bench(size_t l2, lab_case *out)
{
    lab_shape s[] = {{10, 10000, 0}, {10000, 10, 0}, {1024, 1024, 0}, {4096, 4096, 0}, {16384, 16384, 0},
                     {64, 1 << 22, 0}, {512, 1 << 19, 0}, {1 << 22, 64, 0}};
    for (int i = 0; i < 8; i++) out[i] = (lab_case){s[i], 1};
    (void)l2;
    return 8;
}

#define MATVEC_PROBLEM(label, timed) \
    { .name = label, .nbufs = MATVEC_NBUFS, .out = MY, .vary = MX, .layout = matvec_layout, .flops = matvec_flops, \
      .bytes = matvec_bytes, .reference = matvec_reference, .reference_at = matvec_reference_at, .lo = -1, .hi = 1, \
      .cases = timed, .bench_cases = mv_bench }
static const lab_problem matvec = MATVEC_PROBLEM("matvec", mv_cases);
static const lab_problem matvec_few_rows = MATVEC_PROBLEM("matvec-few-rows", mv_few_rows_cases);

/* ---------------------------------------------------------------- stages */

#ifdef LAB_RUNNER
#define D(i) gpu_buf(c, i)
static void add_run(lab_call *c) { vector_add(c->s.n, D(VA), D(VB), D(VC)); }
#define SUM_RUN(name) static void name##_run(lab_call *c) { reduce_##name(c->s.n, D(SIN), D(SOUT), D(SWORK)); }
SUM_RUN(interleaved)
SUM_RUN(strided)
SUM_RUN(sequential)
SUM_RUN(shuffle)
SUM_RUN(vectorized)
#define MV_RUN(name) static void mv_##name##_run(lab_call *c) { matvec_##name(c->s.m, c->s.n, D(MA), D(MX), D(MY)); }
MV_RUN(thread)
MV_RUN(warp)
MV_RUN(block)
#endif

static const lab_stage stages[] = {
    GPU_STAGE("vector_add", "vector_add", "c = a + b: one thread per element", vadd, add_run),
    GPU_STAGE("interleaved", "reduce_interleaved", "shared-memory tree, tid % (2*stride): divergent", sum, interleaved_run),
    GPU_STAGE("strided", "reduce_strided", "index = 2*stride*tid: no divergence, bank conflicts", sum, strided_run),
    GPU_STAGE("sequential", "reduce_sequential", "sequential addressing, stride halving", sum, sequential_run),
    GPU_STAGE("shuffle", "reduce_shuffle", "__shfl_down_sync in warps, shared memory across", sum, shuffle_run),
    GPU_STAGE("vectorized", "reduce_vectorized", "float4 loads, grid-stride loop, few blocks", sum, vectorized_run),
    GPU_STAGE("mv_thread", "matvec_thread", "y = A x, one thread per row", matvec, mv_thread_run),
    GPU_STAGE("mv_warp", "matvec_warp", "y = A x, one warp per row", matvec, mv_warp_run),
    GPU_STAGE("mv_block", "matvec_block", "y = A x, several warps per row", matvec_few_rows, mv_block_run),
};

const lab LAB = {
    .id = "04-warp-reduction",
    .title = "CUDA: vector add, reductions and matvec",
    .source = "reduce.cu",
    GPU_LAB_FIELDS(stages),
};
