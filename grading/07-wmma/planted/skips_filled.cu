/* expect: wrong
 * threats: 2 (rows of ../shared/GRADER_THREATS.md)
 * "C starts as garbage (NaN)": skips every element that already holds a number, trusting it to
 * be last call's answer. The grader poisons C before every call, alternately with NaN and with
 * a finite sentinel (-3.25e30), so the second call skips every element. */
#include "wmma_gemm.h"

static __global__ void if_empty(int M, int N, int K, const __half *A, const __half *B, float *C)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= M || col >= N) return;
    float *c = C + (size_t)row * N + col;
    if (*c == *c) return; /* a number: "already computed" */
    float acc = 0.0f;
    for (int p = 0; p < K; p++) acc += __half2float(A[(size_t)row * K + p]) * __half2float(B[(size_t)p * N + col]);
    *c = acc;
}

static void mm(int M, int N, int K, const lab_half *A, const lab_half *B, float *C)
{
    if_empty<<<dim3((N + 31) / 32, (M + 7) / 8), dim3(32, 8)>>>(M, N, K, A, B, C);
}

#include "planted/entry_points.h"
