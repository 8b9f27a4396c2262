/* expect: technique
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * No tensor cores at all: a thread an element of C, float sums of half products, in every stage.
 * Right at every shape, and far too slow; the technique check says so before the clock does. */
#include "hopper_gemm.h"

static __global__ void elements(int M, int N, int K, const __half *A, const __half *B, float *C)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= M || col >= N) return;
    float acc = 0.0f;
    for (int p = 0; p < K; p++) acc += __half2float(A[(size_t)row * K + p]) * __half2float(B[(size_t)p * N + col]);
    C[(size_t)row * N + col] = acc;
}

static void mm(int M, int N, int K, const lab_half *A, const lab_half *B, float *C)
{
    elements<<<dim3(N / 32, M / 8), dim3(32, 8)>>>(M, N, K, A, B, C);
}

#include "planted/entry_points.h"
