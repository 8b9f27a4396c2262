/* expect: technique in vectorized
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * A stage skipped: `vectorized` runs stage 5's code, 8 x 8 elements a thread in a 128 x 64 block
 * tile, every global load one float (the honest variants' own register_2d kernel). Right at
 * every size; it loads no float4 from global memory, which is what the stage teaches (nvcc makes
 * its reads of 8 floats in a row of shared memory into vector loads by itself: those don't count). */
#include "sgemm.h"
#include <cuda_runtime.h>

/* alpha acc + beta c, not reading c when beta is 0 (what register_2d.h calls) */
static __device__ __forceinline__ float result(float alpha, float acc, float beta, const float *c)
{
    return beta == 0.0f ? alpha * acc : alpha * acc + beta * *c;
}

#define R_BM 128
#define R_BN 64
#define R_BK 8
#define R_THREADS (R_BM * R_BN / 64)
#include "honest/register_2d.h"

static void mm(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    register_2d_kernel<<<dim3((N + R_BN - 1) / R_BN, (M + R_BM - 1) / R_BM), R_THREADS>>>(M, N, K, alpha, A, B, beta, C);
}

#include "planted/entry_points.h"
