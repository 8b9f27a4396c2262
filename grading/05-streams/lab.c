/* lab.c - lab 05: y = p(x) for a host array x, through the GPU and back, four ways: pageable
 * copies, pinned copies, a multi-stream pipeline, and the pipeline as a CUDA graph; then y = A x
 * with A in host memory, its rows pipelined over streams (the source's task 4). The student
 * owns every allocation and copy; the harness times the whole trip and, in the runner, counts what
 * the student's code creates and destroys and records what it queued on which stream. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "lab.h"
#include "problems.h"
#include "runner.h"
#include "streams.h"

/* ---------------------------------------------------------------- the problem: y = p(x) */


static void poly_layout(lab_shape s, lab_buf *b)
{
    b[PX] = (lab_buf){"x", ROLE_IN, F32, 1, (size_t)s.n};
    b[PC] = (lab_buf){"c", ROLE_IN, F32, 1, POLY_DEGREE + 1};
    b[PY] = (lab_buf){"y", ROLE_OUT, F32, 1, (size_t)s.n};
}
/* One multiply and one add a degree an element; the bytes are what crosses PCIe: x in, y out. */
static double poly_flops(lab_shape s) { return 2.0 * POLY_DEGREE * s.n; }
static double poly_bytes(lab_shape s) { return 8.0 * s.n; }

/* Horner's rule in double. Evaluated in float by Horner (with or without fused multiply-adds), by
 * Estrin's scheme or term by term, the error is at most about 2 d u sum |c_k| |x|^k (d the degree,
 * u = 2^-24), which the second Horner pass on absolute values computes. A kernel that drops or
 * shifts a coefficient, or an element, is wrong by far more. One element's Horner is a chain of
 * dependent multiply-adds, so the elements go BLOCK at a time, the inner loop across them (it
 * vectorises), and blocks across the scorer's cores: 2^24 elements of degree 2048 is 7e10 of them. */
#define BLOCK 64
static void poly_block(const float *x, const float *c, const uint64_t *at, size_t count, double *ref, double *bound)
{
    double v[BLOCK], a[BLOCK], y[BLOCK], m[BLOCK];
    for (size_t j = 0; j < BLOCK; j++) {
        v[j] = j < count ? x[at[j]] : 0, a[j] = fabs(v[j]);
        y[j] = c[POLY_DEGREE], m[j] = fabs((double)c[POLY_DEGREE]);
    }
    for (int k = POLY_DEGREE - 1; k >= 0; k--) {
        double ck = c[k], mk = fabs(ck);
        for (size_t j = 0; j < BLOCK; j++) {
            y[j] = y[j] * v[j] + ck;
            m[j] = m[j] * a[j] + mk;
        }
    }
    for (size_t j = 0; j < count; j++) {
        ref[at[j]] = y[j];
        bound[at[j]] = 2.5 * (POLY_DEGREE + 1) * 0x1p-24 * m[j] + 0x1p-100;
    }
}

static void poly_reference_at(lab_shape s, void *const *buf, const uint64_t *at, size_t count, double *ref,
                              double *bound)
{
    (void)s;
#ifndef LAB_RUNNER
#pragma omp parallel for schedule(static)
#endif
    for (size_t b = 0; b < (count + BLOCK - 1) / BLOCK; b++) {
        size_t lo = b * BLOCK, len = count - lo < BLOCK ? count - lo : BLOCK;
        poly_block(buf[PX], buf[PC], at + lo, len, ref, bound);
    }
}

static void poly_reference(lab_shape s, void *const *buf, double *ref, double *bound)
{
    uint64_t *all = malloc((size_t)s.n * sizeof *all);
    for (size_t i = 0; i < (size_t)s.n; i++) all[i] = i;
    poly_reference_at(s, buf, all, (size_t)s.n, ref, bound);
    free(all);
}

/* (streams, n, chunks): one element; fewer elements than chunks; chunks that don't divide n; more
 * streams than chunks; one stream; a prime n; random ones; and the timed size, 2^24 floats (64 MiB
 * each way) in 32 chunks over 4 streams. Stages 1 and 2 ignore streams and chunks. */
static int poly_cases(rng *r, size_t llc, lab_case *out)
{
    lab_shape s[] = {{1, 1, 1},
                     {3, 5, 8},
                     {2, 1000, 3},
                     {8, 4099, 5},
                     {1, 65537, 4},
                     {4, 999983, 7},
                     {rng_int(r, 1, 6), rng_int(r, 1000, 300000), rng_int(r, 1, 40)},
                     {3, (1 << 20) + rng_int(r, 1, 4095), 16},
                     {4, 1 << 24, 32}};
    int n = sizeof s / sizeof s[0];
    for (int i = 0; i < n; i++) out[i] = (lab_case){s[i], i == n - 1};
    (void)llc;
    return n;
}

/* How the gain levels off with the number of streams (32 chunks), then with the number of chunks
 * (4 streams), at the timed size. */
static int poly_bench(size_t llc, lab_case *out)
{
    static const int streams[] = {1, 2, 3, 4, 8, 16}, chunks[] = {4, 8, 16, 64, 128, 512};
    int k = 0;
    for (int i = 0; i < 6; i++) out[k++] = (lab_case){{streams[i], 1 << 24, 32}, 1};
    for (int i = 0; i < 6; i++) out[k++] = (lab_case){{4, 1 << 24, chunks[i]}, 1};
    (void)llc;
    return k;
}

static const lab_problem poly = {
    .name = "poly", .dim_names = {"streams", "n", "chunks"}, .nbufs = 3, .out = PY, .vary = PX,
    .layout = poly_layout, .flops = poly_flops, .bytes = poly_bytes, .reference = poly_reference,
    .reference_at = poly_reference_at, .ceiling = CEIL_PIPELINE, .poly_degree = POLY_DEGREE, .lo = -1, .hi = 1,
    .cases = poly_cases, .bench_cases = poly_bench,
};

/* ---------------------------------------------------------------- stage 5: y = A x, A in host memory */

/* y = A x in double (problems.h), A and x in host memory. The copy of A over the link bounds it:
 * 8 bytes of A a multiply-add, against the device's own memory some 60 times faster, so the ideal
 * is the copy in of A and x (the probe's, at the same m x n). A is the varying input, redrawn whole
 * before every timed call: a copy of A kept on the device from an earlier call is of no use.
 * Edges, rows shorter and longer than a warp, a random shape, and the timed 8192 x 4096 (256 MiB). */
static int mv_cases(rng *r, size_t llc, lab_case *out)
{
    lab_shape s[] = {{1, 1, 0},    {3, 5, 0},      {17, 1000, 0}, {1000, 17, 0},
                     {4099, 257, 0}, {rng_int(r, 1, 3000), rng_int(r, 1, 3000), 0}, {8192, 4096, 0}};
    int n = sizeof s / sizeof s[0];
    for (int i = 0; i < n; i++) out[i] = (lab_case){s[i], i == n - 1};
    (void)llc;
    return n;
}

/* 8 MiB to 1 GiB of A, square, tall and wide. */
static int mv_bench(size_t llc, lab_case *out)
{
    static const lab_shape s[] = {{1024, 1024, 0}, {4096, 4096, 0}, {8192, 4096, 0}, {16384, 8192, 0},
                                  {262144, 128, 0}, {128, 262144, 0}};
    int n = sizeof s / sizeof s[0];
    for (int i = 0; i < n; i++) out[i] = (lab_case){s[i], 1};
    (void)llc;
    return n;
}

static const lab_problem matvec = {
    .name = "matvec", .nbufs = MATVEC_NBUFS, .out = MATVEC_Y, .vary = MATVEC_A, .layout = matvec_layout,
    .flops = matvec_flops, .bytes = matvec_bytes, .reference = matvec_reference, .reference_at = matvec_reference_at,
    .ceiling = CEIL_PIPELINE, .matvec_pipeline = 1, .lo = -1, .hi = 1, .cases = mv_cases, .bench_cases = mv_bench,
};

/* ---------------------------------------------------------------- the runner's side: runner.c */

/* The harness does no copies of its own: the student's functions get the host arrays. */
#define STAGE(id, what, name, problem) \
    {id, #name "_create " #name "_run " #name "_destroy", what, &problem, RUNNER_ONLY(name##_setup), NULL, RUNNER_ONLY(name##_call), NULL, \
     RUNNER_ONLY(name##_teardown)}

static const lab_stage stages[] = {
    STAGE("pageable", "malloc'd host memory, one stream: copy in, compute, copy out", pageable, poly),
    STAGE("pinned", "the host arrays page-locked: the same three steps at full copy speed", pinned, poly),
    STAGE("pipelined", "chunks over several streams: copy in, compute and copy out overlap", pipelined, poly),
    STAGE("graph", "the pipeline captured once as a CUDA graph, replayed", graph, poly),
    STAGE("matvec", "y = A x with A in host memory: its rows in chunks over streams", matvec, matvec),
};

const lab LAB = {
    .id = "05-streams",
    .title = "CUDA streams: pinned memory, a copy/compute pipeline, and a matvec over the link",
    .source = "streams.cu",
    .threads = 1,
    .gpu = 1,
    .stages = stages,
    .nstages = sizeof stages / sizeof stages[0],
    .timer = RUNNER_ONLY(&streams_timer),
    .traced = 1,
    .trace = RUNNER_ONLY(&streams_tracer),
};
