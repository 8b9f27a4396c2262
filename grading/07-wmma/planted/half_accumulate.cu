/* expect: wrong
 * threats: 21 (rows of ../shared/GRADER_THREATS.md)
 * Accumulates in half precision (__hfma), as a tensor-core kernel configured for an fp16
 * accumulator would: 11 significant bits, far outside the float-accumulation bound the lab
 * requires, (k + 2) 2^-24 |A||B|, doubled. */
#include "wmma_gemm.h"

static __global__ void half_sums(int M, int N, int K, const __half *A, const __half *B, float *C)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= M || col >= N) return;
    __half acc = __float2half(0.0f);
    for (int p = 0; p < K; p++) acc = __hfma(A[(size_t)row * K + p], B[(size_t)p * N + col], acc);
    C[(size_t)row * N + col] = __half2float(acc);
}

static void mm(int M, int N, int K, const lab_half *A, const lab_half *B, float *C)
{
    half_sums<<<dim3((N + 31) / 32, (M + 7) / 8), dim3(32, 8)>>>(M, N, K, A, B, C);
}

#include "planted/entry_points.h"
