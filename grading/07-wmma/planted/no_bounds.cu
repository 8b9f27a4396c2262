/* expect: out-of-bounds
 * threats: 16 (rows of ../shared/GRADER_THREATS.md)
 * "Sizes are multiples of 16, so 32 x 32 blocks need no test": a grid rounded up to 32 and no
 * bounds test. At 16 x 16 x 16 the threads past the last row and column store up to 271 floats
 * past the end of C, into the guard zone the grader puts after every buffer. */
#include "wmma_gemm.h"

static __global__ void unchecked(int M, int N, int K, const __half *A, const __half *B, float *C)
{
    int col = blockIdx.x * 32 + threadIdx.x, row = blockIdx.y * 32 + threadIdx.y;
    float acc = 0.0f;
    for (int p = 0; p < K; p++) acc += __half2float(A[(size_t)row * K + p]) * __half2float(B[(size_t)p * N + col]);
    C[(size_t)row * N + col] = acc; /* no row < M && col < N */
}

static void mm(int M, int N, int K, const lab_half *A, const lab_half *B, float *C)
{
    unchecked<<<dim3((N + 31) / 32, (M + 31) / 32), dim3(32, 32)>>>(M, N, K, A, B, C);
}

#include "planted/entry_points.h"
