/* lab.c - lab 07: C = A B with A and B in half precision and C in float, on the tensor cores
 * through WMMA, four ways; judged against cuBLAS HGEMM measured in the same run. See
 * common/both/lab.h for the fields. */
#include "lab.h"
#include "problems.h"
#include "wmma_gemm.h"
#ifdef LAB_RUNNER
#include "gpu.h"
#endif

/* WMMA's 16 x 16 x 16 fragments need M, N, K multiples of 16: the smallest, shapes that are not
 * multiples of a 128-wide block tile, a long K, random shapes, and 8192^3 timed. */
static int cases(rng *r, size_t l2, lab_case *out)
{
    lab_shape s[] = {{16, 16, 16},
                     {48, 80, 32},
                     {1040, 528, 272},
                     {528, 1040, 64},
                     {256, 512, 1024},
                     {16 * rng_int(r, 1, 40), 16 * rng_int(r, 1, 40), 16 * rng_int(r, 1, 40)},
                     {8192, 8192, 8192}};
    for (int i = 0; i < 7; i++) out[i] = (lab_case){s[i], i == 6};
    (void)l2;
    return 7;
}

static const lab_problem hgemm = HGEMM_PROBLEM(cases);

#ifdef LAB_RUNNER
#define RUN(name) \
    static void name##_run(lab_call *c) \
    { \
        wmma_##name(c->s.m, c->s.n, c->s.k, gpu_buf(c, GEMM_A), gpu_buf(c, GEMM_B), gpu_buf(c, GEMM_C)); \
    }
RUN(warp_tile)
RUN(block_tile)
RUN(padded)
RUN(pipelined)
#endif

#define STAGE(id, what) GPU_STAGE(#id, "wmma_" #id, what, hgemm, id##_run)

static const lab_stage stages[] = {
    STAGE(warp_tile, "one warp per 16x16 tile, fragments from global memory"),
    STAGE(block_tile, "128x128x32 block tiles in shared memory, 16 warps"),
    STAGE(padded, "padded shared rows, 16-byte loads, 64x32 warp tiles"),
    STAGE(pipelined, "multi-stage cp.async pipeline, 128x256 tiles"),
};

const lab LAB = {
    .id = "07-wmma",
    .title = "CUDA: tensor-core GEMM with WMMA",
    .source = "wmma_gemm.cu",
    GPU_LAB_FIELDS(stages),
};
