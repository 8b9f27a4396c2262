/* expect: too-slow in pageable
 * threats: 43 (rows of ../shared/GRADER_THREATS.md)
 * Honest (one stream, pageable: the reference reads 14-18% of the ideal pipeline on an H100,
 * against the stage's 8%), but at the timed 2^24 floats it first looks for the seed of the call's
 * x on the stack above its own frame (../plants/seed_probe.h: 256 words, each tried on the GPU as
 * the seed of x's first 16 elements, copied there) and, where none is, holds the GPU for 100 ms
 * before the work: several times the longest a call may take and pass. Where a word is the seed
 * (the tree before 31c6b3c, whose runner kept each call's secret in a local while it ran) it only
 * computes, and passes: a cheat could have made x on the device instead of copying it in, a third
 * of the stage's time. runner.c's forget_seed leaves no seed to find: too slow. */
#define OWN_PAGEABLE
#include "planted/common.h"

#include "../plants/seed_probe.h"

#define SPIN_NS 100000000ull

static float *first16; /* x's first 16 elements, on the device for the probe */

extern "C" void *pageable_create(int n, const float *x, float *y, const float *c)
{
    cudaMalloc(&first16, 16 * sizeof(float));
    return setup(n, 1, 0, x, y, c, 0);
}

extern "C" void pageable_run(void *q)
{
    plant *p = (plant *)q;
    if (p->n == (1 << 24)) { /* the timed size; x varies (lab.c: lo -1, hi 1) */
        cudaMemcpy(first16, p->x, 16 * sizeof(float), cudaMemcpyHostToDevice);
        seed_probe(__builtin_frame_address(0), first16, SEED_PROBE_F32, -1, 1, 0, SPIN_NS);
    }
    piece(p, 0, p->n, 0);
    cudaDeviceSynchronize();
}

extern "C" void pageable_destroy(void *p)
{
    cudaFree(first16);
    teardown((plant *)p, 0);
}
