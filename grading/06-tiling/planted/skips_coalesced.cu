/* expect: too-slow in coalesced
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * A stage skipped: `coalesced` runs stage 1's code, a thread an element of C with threadIdx.x
 * running down a column of C: a warp's 32 lanes read 32 rows of A K floats apart and write 32
 * rows of C, a cache line each. Right at every size; about 1% of cuBLAS where consecutive lanes on
 * consecutive columns of C reach about 12%. */
#include "sgemm.h"
#include <cuda_runtime.h>

static __global__ void column_threads(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x, col = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= M || col >= N) return;
    float acc = 0.0f;
    for (int p = 0; p < K; p++) acc += A[(size_t)row * K + p] * B[(size_t)p * N + col];
    size_t ij = (size_t)row * N + col; /* C unread where beta is 0: it may hold NaN */
    C[ij] = beta == 0.0f ? alpha * acc : alpha * acc + beta * C[ij];
}

static void mm(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    dim3 block(32, 32), grid((M + 31) / 32, (N + 31) / 32);
    column_threads<<<grid, block>>>(M, N, K, alpha, A, B, beta, C);
}

#include "planted/entry_points.h"
