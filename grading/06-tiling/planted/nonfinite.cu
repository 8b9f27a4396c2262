/* expect: wrong
 * threats: 20 (rows of ../shared/GRADER_THREATS.md)
 * Right except for the last element of C, which becomes NaN (0 / 0): every element is checked,
 * and the comparison is written so that NaN fails it. */
#include "sgemm.h"
#include "planted/common_kernels.h"

static __global__ void spoil(float *p)
{
    volatile float zero = 0.0f;
    *p = zero / zero;
}

static void mm(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    honest_mm(M, N, K, alpha, A, B, beta, C);
    spoil<<<1, 1>>>(C + (size_t)M * N - 1);
}

#include "planted/entry_points.h"
