/* expect: wrong
 * threats: 24 (rows of ../shared/GRADER_THREATS.md)
 * The grid's width is N / 32 blocks, rounded down (its height is rounded up, and rows are
 * bounds-checked): the last N % 32 columns of C are never computed and keep their old values.
 * Every element is checked. */
#include "sgemm.h"
#include "planted/common_kernels.h"

static void mm(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    dim3 block(32, 8), grid(N / 32, (M + 7) / 8);
    if (grid.x > 0) sgemm_kernel<<<grid, block>>>(M, N, K, alpha, A, B, beta, C);
}

#include "planted/entry_points.h"
