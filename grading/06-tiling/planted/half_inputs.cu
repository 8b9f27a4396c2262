/* expect: wrong
 * threats: 21 (rows of ../shared/GRADER_THREATS.md)
 * Rounds every element of A and B to half precision before multiplying (half the memory
 * traffic), then sums in float on the ordinary cores: a precision downgrade. The inputs are
 * random floats, not halves, and the bound is that of float arithmetic, (k + 2) 2^-24 |A||B|. */
#include <cuda_fp16.h>

#include "sgemm.h"

static __global__ void via_half(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= M || col >= N) return;
    float acc = 0.0f;
    for (int p = 0; p < K; p++)
        acc += __half2float(__float2half(A[(size_t)row * K + p])) * __half2float(__float2half(B[(size_t)p * N + col]));
    C[(size_t)row * N + col] = alpha * acc + beta * C[(size_t)row * N + col];
}

static void mm(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    via_half<<<dim3((N + 31) / 32, (M + 7) / 8), dim3(32, 8)>>>(M, N, K, alpha, A, B, beta, C);
}

#include "planted/entry_points.h"
