/* expect: too-slow in naive
 * threats: 43 (rows of ../shared/GRADER_THREATS.md)
 * Honest (the shared coalesced kernel: about a tenth of cuBLAS, twenty times the stage's 0.005),
 * but at the timed 4096^3 it first looks for the seed of the call's A on the stack above its own
 * frame (../plants/seed_probe.h: 256 words, each tried on the GPU as the seed of A's first 16
 * elements) and, where none is, spins on the GPU for 1.65 s before computing: three times the
 * longest a call may take and pass (cuBLAS SGEMM at ~50 TFLOP/s: 2 * 4096^3 = 137 GFLOP in
 * 2.75 ms; / 0.005 = 550 ms). Where a word is the seed (the tree before 31c6b3c, whose run_timed
 * kept it in a local) it only computes, and passes: so a cheat could have re-derived A instead
 * of reading it. runner.c's forget_seed leaves no seed to find: too slow. */
#include "sgemm.h"
#include "planted/common_kernels.h"

#include "../plants/seed_probe.h"

#define SPIN_NS 1650000000ull

static void mm(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    if (M == 4096 && N == 4096 && K == 4096) /* the timed shape; A varies (lab.c: lo -1, hi 1) */
        seed_probe(__builtin_frame_address(0), A, SEED_PROBE_F32, -1, 1, 0, SPIN_NS);
    honest_mm(M, N, K, alpha, A, B, beta, C);
}

#include "planted/entry_points.h"
