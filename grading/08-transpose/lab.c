/* lab.c - lab 08: out = in^T for an m x n float matrix, from one thread per element to tiles in
 * shared memory (plain, padded, swizzled) and vector loads. One problem, five stages, judged
 * against the device's copy bandwidth measured in the same run. See common/both/lab.h for the fields. */
#include "lab.h"
#include "transpose.h"
#ifdef LAB_RUNNER
#include "gpu.h"
#endif

enum { TIN, TOUT };

static void layout(lab_shape s, lab_buf *b)
{
    b[TIN] = (lab_buf){"in", ROLE_IN, F32, (size_t)s.m, (size_t)s.n};
    b[TOUT] = (lab_buf){"out", ROLE_OUT, F32, (size_t)s.n, (size_t)s.m};
}

/* No arithmetic: the table's "GFLOP/s" counts elements moved (G elements/s), 8 bytes each (one
 * read, one write), so the intensity is 1/8 and the ceiling copy bandwidth / 8. */
static double flops(lab_shape s) { return (double)s.m * s.n; }
static double bytes(lab_shape s) { return 8.0 * s.m * s.n; }

/* A copy: every element exact. */
static void reference(lab_shape s, void *const *buf, double *ref, double *bound)
{
    const float *in = buf[TIN];
    for (size_t i = 0; i < (size_t)s.m; i++)
        for (size_t j = 0; j < (size_t)s.n; j++) {
            ref[j * s.m + i] = in[i * s.n + j];
            bound[j * s.m + i] = 0;
        }
}

static void reference_at(lab_shape s, void *const *buf, const uint64_t *at, size_t count, double *ref, double *bound)
{
    const float *in = buf[TIN];
    for (size_t k = 0; k < count; k++) {
        size_t j = at[k] / (size_t)s.m, i = at[k] % (size_t)s.m; /* out[j][i] = in[i][j] */
        ref[at[k]] = in[i * s.n + j];
        bound[at[k]] = 0;
    }
}

/* One element, a row, a column, the sides of a tile (31, 33; 32 exactly), sizes that are not
 * multiples of 4 (no float4 along them) or of a tile, multiples of 4 but not of a tile (float4 in
 * edge tiles: 36 x 100), tall and wide, a random one; 8192 x 12288 timed
 * (384 MiB each way: far beyond any L2, and not square). */
static int cases(rng *r, size_t l2, lab_case *out)
{
    lab_shape s[] = {{1, 1, 0},       {1, 1000, 0},   {1000, 1, 0},
                     {31, 33, 0},     {33, 31, 0},    {32, 32, 0},
                     {36, 100, 0},    {136, 200, 0},  {1000, 1003, 0}, {4097, 17, 0},  {18, 4099, 0},
                     {rng_int(r, 1, 3000), rng_int(r, 1, 3000), 0}, {8192, 12288, 0}};
    int n = sizeof s / sizeof s[0];
    for (int i = 0; i < n; i++) out[i] = (lab_case){s[i], i == n - 1};
    (void)l2;
    return n;
}

/* From a matrix that fits in L2 to one far beyond it, square and not; the tall and wide ones need
 * 8192 blocks of 32 x 8 threads (4 rows each) down, or 16384 of 16 x 16: within gridDim.y's 65535. */
static int sweep(size_t l2, lab_case *out)
{
    lab_shape s[] = {{1024, 1024, 0}, {4096, 4096, 0}, {8192, 8192, 0}, {8192, 12288, 0}, {16384, 16384, 0},
                     {64, 1 << 18, 0}, {1 << 18, 64, 0}};
    int n = sizeof s / sizeof s[0];
    for (int i = 0; i < n; i++) out[i] = (lab_case){s[i], 1};
    (void)l2;
    return n;
}

static const lab_problem transpose = {
    .name = "transpose", .nbufs = 2, .out = TOUT, .vary = TIN, .layout = layout, .flops = flops, .bytes = bytes,
    .reference = reference, .reference_at = reference_at, .lo = -1, .hi = 1, .cases = cases, .bench_cases = sweep,
    .vendor = "cublas-transpose", /* make bench: cuBLAS's geam beside the stages */
};

#ifdef LAB_RUNNER
#define RUN(name) \
    static void name##_run(lab_call *c) { transpose_##name(c->s.m, c->s.n, gpu_buf(c, TIN), gpu_buf(c, TOUT)); }
RUN(naive)
RUN(tiled)
RUN(padded)
RUN(swizzled)
RUN(vectorized)
#endif

#define STAGE(id, what) GPU_STAGE(#id, "transpose_" #id, what, transpose, id##_run)

static const lab_stage stages[] = {
    STAGE(naive, "one thread per element: reads along rows, writes down columns"),
    STAGE(tiled, "a 32x32 tile in shared memory: both ways along rows, bank conflicts"),
    STAGE(padded, "the tile padded to 33 columns: no bank conflicts"),
    STAGE(swizzled, "the tile unpadded, columns XOR-swizzled: no bank conflicts"),
    STAGE(vectorized, "several elements a thread, float4 where the sizes allow"),
};

const lab LAB = {
    .id = "08-transpose",
    .title = "CUDA: matrix transpose, coalescing and shared-memory banks",
    .source = "transpose.cu",
    GPU_LAB_FIELDS(stages),
    .ranked = 5,
};
