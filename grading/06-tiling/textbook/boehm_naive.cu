/* textbook: naive
 * The naive SGEMM of Simon Boehm's worklog ("How to Optimize a CUDA Matmul Kernel for
 * cuBLAS-like Performance: a Worklog", 2022, kernel 1), in this workbook's own code: one thread
 * per element of C, blocks of 32 x 32 threads, the grid ceil(M / 32) x ceil(N / 32). The first
 * index, x = blockIdx.x * 32 + threadIdx.x, picks the row of C and the second, y = blockIdx.y *
 * 32 + threadIdx.y, its column, so the 32 consecutive threadIdx.x of a warp take 32 consecutive
 * rows: their loads of A are K floats apart and their stores to C N floats apart (the
 * uncoalesced access the worklog measures, and removes in kernel 2, textbook/boehm_coalesced.cu),
 * while they all read the same element of B. A thread inside C runs the K-long dot product of
 * its row of A and column of B in one register and stores alpha times it plus beta times the old
 * C. The worklog's kernel already has the test against M and N for partial tiles and the same
 * row-major layout and alpha/beta as the lab; added for the lab's interface only: C is not read
 * when beta == 0 (sgemm.h). Graded on `naive` only: the other stages launch nothing. */
#include "sgemm.h"

#include <cuda_runtime.h>

#define TILE 32

static __global__ void naive_kernel(int M, int N, int K, float alpha, const float *A, const float *B, float beta,
                                    float *C)
{
    /* consecutive threadIdx.x: consecutive rows, the same column */
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < (unsigned)M && y < (unsigned)N) {
        float dot = 0.0f;
        for (int p = 0; p < K; ++p) dot += A[x * K + p] * B[p * N + y];
        float *out = &C[x * N + y];
        *out = beta == 0.0f ? alpha * dot : alpha * dot + beta * *out;
    }
}

extern "C" void sgemm_naive(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    dim3 grid((M + TILE - 1) / TILE, (N + TILE - 1) / TILE), block(TILE, TILE);
    naive_kernel<<<grid, block>>>(M, N, K, alpha, A, B, beta, C);
}
extern "C" void sgemm_coalesced(int, int, int, float, const float *, const float *, float, float *) {}
extern "C" void sgemm_smem_tiled(int, int, int, float, const float *, const float *, float, float *) {}
extern "C" void sgemm_coarsened(int, int, int, float, const float *, const float *, float, float *) {}
extern "C" void sgemm_register_2d(int, int, int, float, const float *, const float *, float, float *) {}
extern "C" void sgemm_vectorized(int, int, int, float, const float *, const float *, float, float *) {}
