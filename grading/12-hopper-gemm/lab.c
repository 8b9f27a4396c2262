/* lab.c - lab 12: C = A B with A and B in half precision and C in float, on a Hopper GPU's tensor
 * cores through wgmma, fed by plain copies, then the tensor memory accelerator, warp
 * specialisation and a persistent grid of clusters; judged against cuBLAS HGEMM measured in the
 * same run. Lab 07's problem (common/both/problems.c), tiles of 256 x 256 x 64. See
 * common/both/lab.h for the fields. */
#include "lab.h"
#include "problems.h"
#include "hopper_gemm.h"
#ifdef LAB_RUNNER
#include "gpu.h"
#endif

/* M and N multiples of 256, K of 64: the smallest, a single k tile, shapes that are not square in
 * either direction, a long K, a random shape, and 8192^3 timed. */
static int cases(rng *r, size_t l2, lab_case *out)
{
    lab_shape s[] = {{256, 256, 64},
                     {256, 512, 128},
                     {768, 256, 576},
                     {512, 1280, 64},
                     {256, 256, 4096},
                     {256 * rng_int(r, 1, 8), 256 * rng_int(r, 1, 8), 64 * rng_int(r, 1, 40)},
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
        hopper_##name(c->s.m, c->s.n, c->s.k, gpu_buf(c, GEMM_A), gpu_buf(c, GEMM_B), gpu_buf(c, GEMM_C)); \
    }
RUN(wgmma)
RUN(tma)
RUN(specialised)
RUN(persistent)
#endif

#define STAGE(id, what) GPU_STAGE(#id, "hopper_" #id, what, hgemm, id##_run)

static const lab_stage stages[] = {
    STAGE(wgmma, "wgmma from shared memory, tiles put there by plain copies"),
    STAGE(tma, "TMA copies into an mbarrier ring of stages"),
    STAGE(specialised, "a producer warpgroup and consumer warpgroups (setmaxnreg)"),
    STAGE(persistent, "a persistent grid, clusters of 2 with TMA multicast"),
};

const lab LAB = {
    .id = "12-hopper-gemm",
    .title = "CUDA: Hopper GEMM with TMA, wgmma and warp specialisation",
    .source = "hopper_gemm.cu",
    GPU_LAB_FIELDS(stages),
};
