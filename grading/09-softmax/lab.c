/* lab.c - lab 09: the softmax of each row of an m x n float matrix, from a block per row in three
 * passes to a warp per row, online softmax and a row held in registers. One problem, four stages,
 * judged against the device's copy bandwidth measured in the same run. See common/both/lab.h. */
#include <math.h>

#include "lab.h"
#include "softmax.h"
#ifdef LAB_RUNNER
#include "gpu.h"
#endif

enum { SIN, SOUT };

static void layout(lab_shape s, lab_buf *b)
{
    b[SIN] = (lab_buf){"in", ROLE_IN, F32, (size_t)s.m, (size_t)s.n};
    b[SOUT] = (lab_buf){"out", ROLE_OUT, F32, (size_t)s.m, (size_t)s.n};
}

/* The table's "GFLOP/s" counts elements (G elements/s); the ideal moves 8 bytes each (one read,
 * one write), so the ceiling is copy bandwidth / 8. A kernel that reads a row twice or three
 * times pays for it against that ideal. */
static double flops(lab_shape s) { return (double)s.m * s.n; }
static double bytes(lab_shape s) { return 8.0 * s.m * s.n; }

/* The row's maximum and sum of exp(x - max), in double. */
static void row_stats(const float *x, int n, double *max, double *sum)
{
    double m = x[0], s = 0;
    for (int j = 1; j < n; j++) m = x[j] > m ? x[j] : m;
    for (int j = 0; j < n; j++) s += exp(x[j] - m);
    *max = m, *sum = s;
}

/* The error bound of one output, y = e / S with e = exp(t), t = x - M <= 0, in float; an ulp here
 * is a relative 2^-23, u = 2^-24:
 *  - the sum of n positive terms in any order: relative error at most (n - 1) u;
 *  - the element's own exp: t itself is rounded when x and M differ in exponent (half an ulp of t,
 *    so 0.5 |t| ulp of e^t); then CUDA's expf adds 2 ulp, its fast __expf 2 + 1.173 |t| (the
 *    Programming Guide's table): 2 + 1.67 |t| at worst, within 2 + 2 |t|;
 *  - the exps inside S: their errors weighted by the terms' shares p_k = e_k / S, at most
 *    2 + 2 sum p_k |t_k| ulp, and sum p_k |t_k| <= sum p_k (-ln p_k) <= ln n (S >= 1, as the
 *    maximum's term is 1; the entropy of n shares is at most ln n): 2 + 2 ln n;
 *  - the division, or a multiplication by 1 / S, or __fdividef: 4 ulp.
 * So |y~ - y| <= y ((n + 2) u + (8 + 2 |t| + 2 ln n) 2^-23) + 2^-126 (the last for outputs that
 * underflow, or that fast math flushes to zero). scripts/softmax-bound.c tries it on the CPU. */
static double bound_of(double y, double t, int n)
{
    return y * ((n + 2) * 0x1p-24 + (8 + 2 * fabs(t) + 2 * log(n)) * 0x1p-23) + 0x1p-126;
}

static void reference(lab_shape s, void *const *buf, double *ref, double *bound)
{
    const float *in = buf[SIN];
    for (size_t i = 0; i < (size_t)s.m; i++) {
        const float *x = in + i * s.n;
        double m, sum;
        row_stats(x, s.n, &m, &sum);
        for (int j = 0; j < s.n; j++) {
            double t = x[j] - m, y = exp(t) / sum;
            ref[i * s.n + j] = y;
            bound[i * s.n + j] = bound_of(y, t, s.n);
        }
    }
}

/* Sampled positions of a timed call: each row's statistics computed once however many of its
 * elements are checked (positions come in no order; rows are short there). */
static void reference_at(lab_shape s, void *const *buf, const uint64_t *at, size_t count, double *ref, double *bound)
{
    const float *in = buf[SIN];
    size_t row = (size_t)-1;
    double m = 0, sum = 1;
    for (size_t k = 0; k < count; k++) {
        size_t i = at[k] / (size_t)s.n;
        if (i != row) row = i, row_stats(in + i * s.n, s.n, &m, &sum);
        double t = in[at[k]] - m, y = exp(t) / sum;
        ref[at[k]] = y;
        bound[at[k]] = bound_of(y, t, s.n);
    }
}

/* n = 1 (every output 1); one row; short rows either side of a warp (31, 32, 33); rows not a
 * multiple of 32 (1000); few long rows (7 x 100000 and 2 x 131072, past a cluster's registers, odd
 * and in whole 16-byte groups; 3 x 40001 and 5 x 12289, past one block's registers but within a
 * cluster's, odd; 3 x 20000 and 2 x 65536, the same in whole 16-byte groups, 65536 filling a
 * cluster of 8 exactly); many short ones (4096 x 17); a random shape; 131072 x 512 timed (256 MiB
 * each way: many short rows, the shape of attention scores). */
static int cases(rng *r, size_t l2, lab_case *out)
{
    lab_shape s[] = {{1, 1, 0},      {1000, 1, 0},   {1, 1000, 0}, {3, 31, 0},
                     {5, 32, 0},     {7, 33, 0},     {64, 1000, 0}, {7, 100000, 0},
                     {3, 40001, 0},  {5, 12289, 0},  {3, 20000, 0}, {2, 65536, 0},
                     {2, 131072, 0}, {4096, 17, 0},  {2, 4099, 0},  {rng_int(r, 1, 2000), rng_int(r, 1, 3000), 0},
                     {131072, 512, 0}};
    int n = sizeof s / sizeof s[0];
    for (int i = 0; i < n; i++) out[i] = (lab_case){s[i], i == n - 1};
    (void)l2;
    return n;
}

/* Short rows to long ones, the same 64 Mi elements each (256 MiB each way). */
static int sweep(size_t l2, lab_case *out)
{
    lab_shape s[] = {{1 << 21, 32, 0}, {1 << 19, 128, 0}, {1 << 17, 512, 0}, {1 << 16, 1024, 0},
                     {1 << 14, 4096, 0}, {1 << 10, 1 << 16, 0}, {1 << 8, 1 << 18, 0}, {64, 1 << 20, 0}};
    int n = sizeof s / sizeof s[0];
    for (int i = 0; i < n; i++) out[i] = (lab_case){s[i], 1};
    (void)l2;
    return n;
}

/* Inputs in [-30, 90): above 88.7 (where expf overflows) in most rows of more than a few hundred
 * elements, and spread enough that many outputs of a row matter, not only its largest. */
static const lab_problem softmax = {
    .name = "softmax", .nbufs = 2, .out = SOUT, .vary = SIN, .layout = layout, .flops = flops, .bytes = bytes,
    .reference = reference, .reference_at = reference_at, .lo = -30, .hi = 90, .cases = cases, .bench_cases = sweep,
};

#ifdef LAB_RUNNER
#define RUN(name) \
    static void name##_run(lab_call *c) { softmax_##name(c->s.m, c->s.n, gpu_buf(c, SIN), gpu_buf(c, SOUT)); }
RUN(three_pass)
RUN(warp)
RUN(online)
RUN(registers)
#endif

#define STAGE(id, what) GPU_STAGE(#id, "softmax_" #id, what, softmax, id##_run)

static const lab_stage stages[] = {
    STAGE(three_pass, "a block per row: maximum, sum, outputs: three reads of the row"),
    STAGE(warp, "a warp per row, reductions by warp shuffles"),
    STAGE(online, "online softmax: maximum and sum in one read, then the outputs"),
    STAGE(registers, "a row held in registers: one read, one write"),
};

const lab LAB = {
    .id = "09-softmax",
    .title = "CUDA: row-wise softmax, safe and in one read",
    .source = "softmax.cu",
    GPU_LAB_FIELDS(stages),
    .ranked = 4,
};
