/* expect: technique in coarsened
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * A stage skipped: `coarsened` runs stage 3's code, 32 x 32 tiles of A and B in shared memory and
 * one element of C a thread. Right at every size, and on an H200 at 17% of cuBLAS, over
 * `coarsened`'s 15%; its loop has one chain of multiply-adds (one output a thread), and several
 * outputs a thread are what the stage teaches. */
#include "sgemm.h"
#include <cuda_runtime.h>

static __global__ void tiles(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    __shared__ float As[32][32], Bs[32][32];
    int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * 32 + ty, col = blockIdx.x * 32 + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += 32) {
        As[ty][tx] = row < M && k0 + tx < K ? A[(size_t)row * K + k0 + tx] : 0.0f;
        Bs[ty][tx] = k0 + ty < K && col < N ? B[(size_t)(k0 + ty) * N + col] : 0.0f;
        __syncthreads();
        for (int p = 0; p < 32; p++) acc += As[ty][p] * Bs[p][tx];
        __syncthreads();
    }
    if (row < M && col < N) C[(size_t)row * N + col] = beta == 0.0f ? alpha * acc : alpha * acc + beta * C[(size_t)row * N + col];
}

static void mm(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    tiles<<<dim3((N + 31) / 32, (M + 31) / 32), dim3(32, 32)>>>(M, N, K, alpha, A, B, beta, C);
}

#include "planted/entry_points.h"
