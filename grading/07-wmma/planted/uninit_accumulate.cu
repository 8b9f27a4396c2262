/* expect: wrong
 * threats: 28 (rows of ../shared/GRADER_THREATS.md)
 * Adds its products into C, trusting C to start at zero (fresh cudaMalloc'd memory often is).
 * C is output only: the grader fills it with NaN or a sentinel before every call. */
#include "wmma_gemm.h"

static __global__ void add_into(int M, int N, int K, const __half *A, const __half *B, float *C)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= M || col >= N) return;
    for (int p = 0; p < K; p++)
        C[(size_t)row * N + col] += __half2float(A[(size_t)row * K + p]) * __half2float(B[(size_t)p * N + col]);
}

static void mm(int M, int N, int K, const lab_half *A, const lab_half *B, float *C)
{
    add_into<<<dim3((N + 31) / 32, (M + 7) / 8), dim3(32, 8)>>>(M, N, K, A, B, C);
}

#include "planted/entry_points.h"
