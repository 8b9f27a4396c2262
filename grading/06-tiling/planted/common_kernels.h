/* common_kernels.h - an honest kernel the planted lab-06 submissions share, so that each
 * planted file differs from a correct submission only in its planted behaviour: one thread per
 * element of C, a warp along a row (coalesced), the product summed in float. */
#include <cuda_runtime.h>

static __global__ void sgemm_kernel(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= M || col >= N) return;
    float acc = 0.0f;
    for (int p = 0; p < K; p++) acc += A[(size_t)row * K + p] * B[(size_t)p * N + col];
    C[(size_t)row * N + col] = alpha * acc + beta * C[(size_t)row * N + col];
}

/* Rows [0, M) of C = alpha A B + beta C, any M, N, K >= 1. */
static void honest_mm(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    dim3 block(32, 8), grid((N + 31) / 32, (M + 7) / 8);
    sgemm_kernel<<<grid, block>>>(M, N, K, alpha, A, B, beta, C);
}
