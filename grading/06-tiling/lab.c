/* lab.c - lab 06: SGEMM, C = alpha A B + beta C in float, from one thread per element to
 * register-tiled and vectorised kernels; judged against cuBLAS SGEMM (no TF32) measured in the
 * same run. See common/both/lab.h for the fields. */
#include "lab.h"
#include "problems.h"
#include "sgemm.h"
#ifdef LAB_RUNNER
#include "gpu.h"
#endif

/* Neither 0 nor 1, so a kernel that drops alpha or beta (or reads C when it shouldn't) fails. */
#define ALPHA 1.5
#define BETA (-0.5)

/* Sizes that are not multiples of any tile (1, 17, 1023 x 1025 x 999), 1000^3 (a multiple of 4,
 * so float4 loads apply, but of no tile), a short and wide one, a random one; 4096^3 timed,
 * checked against cuBLAS on the same inputs. */
static int cases(rng *r, size_t l2, lab_case *out)
{
    lab_shape s[] = {{1, 1, 1},
                     {17, 17, 17},
                     {1000, 1000, 1000},
                     {1023, 1025, 999},
                     {33, 4096, 7},
                     {rng_int(r, 1, 700), rng_int(r, 1, 700), rng_int(r, 1, 700)},
                     {4096, 4096, 4096}};
    for (int i = 0; i < 7; i++) out[i] = (lab_case){s[i], i == 6};
    (void)l2;
    return 7;
}

static int sweep(size_t l2, lab_case *out)
{
    for (int i = 0; i < 5; i++) out[i] = (lab_case){{512 << i, 512 << i, 512 << i}, 1};
    (void)l2;
    return 5;
}

static void reference(lab_shape s, void *const *buf, double *ref, double *bound)
{
    sgemm_reference(s, buf, ALPHA, BETA, ref, bound);
}

static void reference_at(lab_shape s, void *const *buf, const uint64_t *at, size_t count, double *ref, double *bound)
{
    sgemm_reference_at(s, buf, ALPHA, BETA, at, count, ref, bound);
}

static const lab_problem sgemm = {
    .name = "sgemm", .nbufs = GEMM_NBUFS, .out = GEMM_C, .vary = GEMM_A, .layout = sgemm_layout, .flops = gemm_flops,
    .bytes = sgemm_bytes, .reference = reference, .reference_at = reference_at, .ceiling = CEIL_BLAS, .blas = "sgemm", .alpha = ALPHA,
    .beta = BETA, .probe_flops = 1e10, .lo = -1, .hi = 1, .cases = cases, .bench_cases = sweep,
};

#ifdef LAB_RUNNER
#define RUN(name) \
    static void name##_run(lab_call *c) \
    { \
        sgemm_##name(c->s.m, c->s.n, c->s.k, ALPHA, gpu_buf(c, GEMM_A), gpu_buf(c, GEMM_B), BETA, gpu_buf(c, GEMM_C)); \
    }
RUN(naive)
RUN(coalesced)
RUN(smem_tiled)
RUN(coarsened)
RUN(register_2d)
RUN(vectorized)
#endif

#define STAGE(id, what) GPU_STAGE(#id, "sgemm_" #id, what, sgemm, id##_run)

static const lab_stage stages[] = {
    STAGE(naive, "one thread per element, threads down a column"),
    STAGE(coalesced, "one thread per element, a warp along a row"),
    STAGE(smem_tiled, "32x32 tiles of A and B in shared memory"),
    STAGE(coarsened, "each thread several elements of a column (1D tile)"),
    STAGE(register_2d, "8x8 elements a thread in a 128x128 block tile"),
    STAGE(vectorized, "float4 loads, A transposed in shared memory"),
};

const lab LAB = {
    .id = "06-tiling",
    .title = "CUDA: SGEMM from naive to register-tiled",
    .source = "sgemm.cu",
    GPU_LAB_FIELDS(stages),
};
