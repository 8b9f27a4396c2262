/* textbook: coalesced
 * Global-memory coalescing as Simon Boehm's SGEMM worklog teaches it ("How to Optimize a CUDA
 * Matmul Kernel for cuBLAS-like Performance", 2022, kernel 2): one thread per element of C, a
 * one-dimensional block of 32 * 32 threads per 32 x 32 tile of C, the grid ceil(M / 32) x
 * ceil(N / 32) with blockIdx.x choosing the tile's rows. Within a block the thread index is split
 * as row = threadIdx.x / 32, column = threadIdx.x % 32, so the 32 lanes of a warp share one row
 * of A (a broadcast) and read 32 consecutive columns of B, and write 32 consecutive floats of C.
 * The worklog's kernel already has the test against M and N for partial tiles and the same
 * row-major layout and alpha/beta as the lab; added for the lab's interface only: C is not read
 * when beta == 0 (sgemm.h). Graded on `coalesced` only: the other stages launch nothing. */
#include "sgemm.h"

#include <cuda_runtime.h>

#define TILE 32

static __global__ void coalesce_kernel(int M, int N, int K, float alpha, const float *A, const float *B, float beta,
                                       float *C)
{
    /* consecutive threadIdx.x: the same row, consecutive columns */
    int r = blockIdx.x * TILE + threadIdx.x / TILE;
    int c = blockIdx.y * TILE + threadIdx.x % TILE;
    if (r >= M || c >= N) return;
    float sum = 0.0f;
    for (int p = 0; p < K; ++p) sum += A[r * K + p] * B[p * N + c];
    float *out = &C[r * N + c];
    *out = beta == 0.0f ? alpha * sum : alpha * sum + beta * *out;
}

extern "C" void sgemm_naive(int, int, int, float, const float *, const float *, float, float *) {}
extern "C" void sgemm_coalesced(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    dim3 grid((M + TILE - 1) / TILE, (N + TILE - 1) / TILE), block(TILE * TILE);
    coalesce_kernel<<<grid, block>>>(M, N, K, alpha, A, B, beta, C);
}
extern "C" void sgemm_smem_tiled(int, int, int, float, const float *, const float *, float, float *) {}
extern "C" void sgemm_coarsened(int, int, int, float, const float *, const float *, float, float *) {}
extern "C" void sgemm_register_2d(int, int, int, float, const float *, const float *, float, float *) {}
extern "C" void sgemm_vectorized(int, int, int, float, const float *, const float *, float, float *) {}
