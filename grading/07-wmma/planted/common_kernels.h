/* common_kernels.h - an honest kernel the planted lab-07 submissions share, so that each
 * planted file differs from a correct submission only in its planted behaviour: no tensor
 * cores, one thread per element of C, a warp along a row, half products summed in float (the
 * float bound is what the grader allows, so this passes every correctness check, slowly). */
#include <cuda_fp16.h>
#include <cuda_runtime.h>

static __global__ void hgemm_kernel(int M, int N, int K, const __half *A, const __half *B, float *C)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= M || col >= N) return;
    float acc = 0.0f;
    for (int p = 0; p < K; p++) acc += __half2float(A[(size_t)row * K + p]) * __half2float(B[(size_t)p * N + col]);
    C[(size_t)row * N + col] = acc;
}

/* Rows [0, M) of C = A B. */
static void honest_mm(int M, int N, int K, const __half *A, const __half *B, float *C)
{
    dim3 block(32, 8), grid((N + 31) / 32, (M + 7) / 8);
    hgemm_kernel<<<grid, block>>>(M, N, K, A, B, C);
}
