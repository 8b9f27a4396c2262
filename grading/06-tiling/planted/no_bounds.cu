/* expect: out-of-bounds
 * threats: 16 (rows of ../shared/GRADER_THREATS.md)
 * A grid of 32 x 32 blocks rounded up, and no bounds test in the kernel: the threads past the
 * last row and column compute from whatever lies beyond A and B and store past the end of C
 * (for 1 x 1 x 1, 62 floats past it), into the guard zone the grader puts after every buffer. */
#include "sgemm.h"

static __global__ void unchecked(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    int col = blockIdx.x * 32 + threadIdx.x, row = blockIdx.y * 32 + threadIdx.y;
    float acc = 0.0f;
    for (int p = 0; p < K; p++) acc += A[(size_t)row * K + p] * B[(size_t)p * N + col];
    C[(size_t)row * N + col] = alpha * acc + beta * C[(size_t)row * N + col]; /* no row < M && col < N */
}

static void mm(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    unchecked<<<dim3((N + 31) / 32, (M + 31) / 32), dim3(32, 32)>>>(M, N, K, alpha, A, B, beta, C);
}

#include "planted/entry_points.h"
