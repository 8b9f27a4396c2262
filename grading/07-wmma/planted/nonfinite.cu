/* expect: wrong
 * threats: 20 (rows of ../shared/GRADER_THREATS.md)
 * Right except for C[0], which becomes infinity (not NaN, which a never-written C poisoned
 * with NaN would show anyway): the comparison with the bound fails for infinities and NaN. */
#include <math.h>

#include "wmma_gemm.h"
#include "planted/common_kernels.h"

static __global__ void spoil(float *p) { *p = INFINITY; }

static void mm(int M, int N, int K, const lab_half *A, const lab_half *B, float *C)
{
    honest_mm(M, N, K, A, B, C);
    spoil<<<1, 1>>>(C);
}

#include "planted/entry_points.h"
