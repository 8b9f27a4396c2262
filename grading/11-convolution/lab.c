/* lab.c - lab 11: 2D convolution (cross-correlation, zero padding) of an m x n float image with an
 * odd K x K float filter, from one thread per output to a shared-memory tile and several outputs a
 * thread. One problem, four stages, judged against the device's copy bandwidth measured in the same
 * run times the intensity (thresholds.conf says why that is the ceiling). See common/both/lab.h. */
#include <math.h>
#include <stdlib.h>

#include "conv.h"
#include "lab.h"
#ifdef LAB_RUNNER
#include "gpu.h"
#endif

enum { CIN, CFILTER, COUT };

/* Shape {m, n, k}: the image is m x n and the filter k x k (K in conv.h). */
static void layout(lab_shape s, lab_buf *b)
{
    b[CIN] = (lab_buf){"in", ROLE_IN, F32, (size_t)s.m, (size_t)s.n};
    b[CFILTER] = (lab_buf){"filter", ROLE_IN, F32, (size_t)s.k, (size_t)s.k};
    b[COUT] = (lab_buf){"out", ROLE_OUT, F32, (size_t)s.m, (size_t)s.n};
}

/* A multiply and an add per tap and output (the padding's taps counted too: a kernel does them or
 * tests for them); the ideal traffic reads the image and the filter once and writes the output
 * once. The intensity is 2 K^2 m n / (8 m n + 4 K^2), about K^2 / 4 flop/byte: 12.25 at K = 7. */
static double flops(lab_shape s) { return 2.0 * s.m * s.n * s.k * s.k; }
static double bytes(lab_shape s) { return 4.0 * (2.0 * s.m * s.n + (double)s.k * s.k); }

/* The error bound of one output, a float sum of N = K^2 products f x (the padding's are exact
 * zeros), u = 2^-24: each product rounds once (not at all inside an FMA), a relative u; a sum of N
 * terms in any order (a running sum, rows first, a tree) errs by at most gamma_(N-1) sum |terms|
 * (Higham, Accuracy and Stability of Numerical Algorithms, sec. 4.2), gamma_j = j u / (1 - j u).
 * Together gamma_N sum |f||x| <= (N + 1) u sum |f||x|, since N (N + 1) u < 1/300 for N <= 225; and N
 * 2^-126 for products or partial sums flushed to zero as subnormals (none at these inputs, in
 * practice). `mag` is sum |f||x| over the output's taps, in double. */
static double bound_of(int K, double mag) { return (K * K + 1) * 0x1p-24 * mag + K * K * 0x1p-126; }

/* In double, a row of outputs at a time, the filter's taps outermost so that the inner loop runs
 * along the row and vectorises; the reference's own error (K^2 2^-53 mag) is a billionth of the
 * float bound. The timed 8192 x 8192 case is 3.3 G taps: spread over the scorer's cores. */
static void reference(lab_shape s, void *const *buf, double *ref, double *bound)
{
    const float *in = buf[CIN], *f = buf[CFILTER];
    int m = s.m, n = s.n, K = s.k, r = K / 2;
#pragma omp parallel
    {
        double *acc = malloc(2 * sizeof *acc * n), *mag = acc + n;
#pragma omp for schedule(static)
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < n; j++) acc[j] = mag[j] = 0;
            for (int a = 0; a < K; a++) {
                int row = i + a - r;
                if (row < 0 || row >= m) continue; /* a row of padding */
                const float *x = in + (size_t)row * n;
                for (int b = 0; b < K; b++) {
                    int d = b - r, lo = d < 0 ? -d : 0, hi = d > 0 ? n - d : n; /* columns j + d inside */
                    double w = f[a * K + b];
                    for (int j = lo; j < hi; j++) {
                        double p = w * x[j + d];
                        acc[j] += p;
                        mag[j] += fabs(p);
                    }
                }
            }
            for (int j = 0; j < n; j++) {
                ref[(size_t)i * n + j] = acc[j];
                bound[(size_t)i * n + j] = bound_of(K, mag[j]);
            }
        }
        free(acc);
    }
}

/* Sampled positions of a timed call, each output's K x K taps summed directly. */
static void reference_at(lab_shape s, void *const *buf, const uint64_t *at, size_t count, double *ref, double *bound)
{
    const float *in = buf[CIN], *f = buf[CFILTER];
    int m = s.m, n = s.n, K = s.k, r = K / 2;
    for (size_t k = 0; k < count; k++) {
        int i = (int)(at[k] / (size_t)n), j = (int)(at[k] % (size_t)n);
        double acc = 0, mag = 0;
        for (int a = 0; a < K; a++)
            for (int b = 0; b < K; b++) {
                int row = i + a - r, col = j + b - r;
                if (row < 0 || row >= m || col < 0 || col >= n) continue;
                double p = (double)f[a * K + b] * in[(size_t)row * n + col];
                acc += p, mag += fabs(p);
            }
        ref[at[k]] = acc;
        bound[at[k]] = bound_of(K, mag);
    }
}

/* One pixel under the smallest and the largest filter (all but the centre tap fall outside); a
 * row and a column; shapes that are not multiples of any tile (33 x 31, 100 x 37, 31 x 33, 300 x
 * 257), an image smaller than its 13 x 13 filter, one that is a multiple of the usual tiles (64 x
 * 128), a long thin one; every odd K from 3 to 15 among them; a random shape with a random odd K;
 * 8192 x 8192 at K = 7 timed (256 MiB each way, far beyond any L2). */
static int cases(rng *r, size_t l2, lab_case *out)
{
    int rm = rng_int(r, 1, 1500), rn = rng_int(r, 1, 1500), rk = 2 * rng_int(r, 1, 7) + 1; /* drawn in this order */
    lab_shape s[] = {{1, 1, 3},     {1, 1, 15},    {1, 1000, 5},   {1000, 1, 7},    {33, 31, 9},
                     {100, 37, 11}, {7, 7, 13},    {64, 128, 3},   {31, 33, 15},    {2, 4099, 13},
                     {300, 257, 5}, {rm, rn, rk},  {8192, 8192, 7}};
    int n = sizeof s / sizeof s[0];
    for (int i = 0; i < n; i++) out[i] = (lab_case){s[i], i == n - 1};
    (void)l2;
    return n;
}

/* The timed image at every K: the intensity K^2 / 4 crosses the ridge of the roofline on the way
 * (thresholds.conf); and K = 7 on a quarter and four times the image. */
static int sweep(size_t l2, lab_case *out)
{
    lab_shape s[] = {{8192, 8192, 3},  {8192, 8192, 5},  {8192, 8192, 7},   {8192, 8192, 9}, {8192, 8192, 11},
                     {8192, 8192, 13}, {8192, 8192, 15}, {4096, 4096, 7}, {16384, 16384, 7}};
    int n = sizeof s / sizeof s[0];
    for (int i = 0; i < n; i++) out[i] = (lab_case){s[i], 1};
    (void)l2;
    return n;
}

/* Image and filter both uniform in [-1, 1): signs mixed, so outputs cancel and a dropped or
 * misplaced tap shows; the timed calls redraw the image. */
static const lab_problem conv = {
    .name = "conv", .nbufs = 3, .out = COUT, .vary = CIN, .layout = layout, .flops = flops, .bytes = bytes,
    .reference = reference, .reference_at = reference_at, .lo = -1, .hi = 1, .cases = cases, .bench_cases = sweep,
    .fp32_capped = 1,
};

#ifdef LAB_RUNNER
#define RUN(name) \
    static void name##_run(lab_call *c) \
    { \
        conv_##name(c->s.m, c->s.n, c->s.k, gpu_buf(c, CIN), gpu_buf(c, CFILTER), gpu_buf(c, COUT)); \
    }
RUN(naive)
RUN(constant)
RUN(tiled)
RUN(coarsened)
#endif

#define STAGE(id, what) GPU_STAGE(#id, "conv_" #id, what, conv, id##_run)

static const lab_stage stages[] = {
    STAGE(naive, "one thread per output, the filter read from global memory"),
    STAGE(constant, "the filter in __constant__ memory, broadcast to the warp"),
    STAGE(tiled, "the input tile and its halo staged in shared memory"),
    STAGE(coarsened, "several outputs a thread along a row, their shared inputs in registers"),
};

const lab LAB = {
    .id = "11-convolution",
    .title = "CUDA: 2D convolution, constant memory, halo tiles and thread coarsening",
    .source = "conv.cu",
    GPU_LAB_FIELDS(stages),
    .ranked = 4,
};
