/* textbook: smem_tiled
 * Shared-memory cache blocking as Simon Boehm's SGEMM worklog teaches it ("How to Optimize a CUDA
 * Matmul Kernel for cuBLAS-like Performance", 2022, kernel 3, BLOCKSIZE 32): a one-dimensional
 * block of 32 * 32 threads per 32 x 32 tile of C, the grid ceil(M / 32) x ceil(N / 32) with
 * blockIdx.x choosing the tile's rows (as in kernel 2). The block walks K in steps of 32: each
 * thread copies one float of A's 32 x 32 tile and one of B's into shared memory (threadIdx.x % 32
 * along a row, so the copies coalesce), barrier, 32 multiply-adds from shared memory, barrier;
 * the A and B pointers advance by a tile each step. The launcher asks for the largest shared
 * memory carveout first, as the worklog's runner does.
 * Added for the lab's interface: the worklog's kernel assumes M, N and K are multiples of 32 and
 * has no bounds tests. Here the copies of A and B put zeros wherever the tile hangs past the
 * matrix (zeros add nothing to the sums), every thread still reaches both barriers, and only
 * threads inside C store; C is not read when beta == 0 (sgemm.h). Graded on `smem_tiled` only. */
#include "sgemm.h"

#include <cuda_runtime.h>

#define BLOCKSIZE 32

static __global__ void smem_block_kernel(int M, int N, int K, float alpha, const float *A, const float *B, float beta,
                                         float *C)
{
    __shared__ float As[BLOCKSIZE * BLOCKSIZE];
    __shared__ float Bs[BLOCKSIZE * BLOCKSIZE];
    int tileRow = blockIdx.x, tileCol = blockIdx.y;
    int tr = threadIdx.x / BLOCKSIZE, tc = threadIdx.x % BLOCKSIZE;
    int rowsLeft = M - tileRow * BLOCKSIZE, colsLeft = N - tileCol * BLOCKSIZE; /* of this tile inside C */

    /* the first row of this tile of A, the first column of this tile of B and C */
    A += tileRow * BLOCKSIZE * K;
    B += tileCol * BLOCKSIZE;
    C += tileRow * BLOCKSIZE * N + tileCol * BLOCKSIZE;

    float sum = 0.0f;
    for (int k0 = 0; k0 < K; k0 += BLOCKSIZE) {
        As[tr * BLOCKSIZE + tc] = tr < rowsLeft && k0 + tc < K ? A[tr * K + tc] : 0.0f;
        Bs[tr * BLOCKSIZE + tc] = k0 + tr < K && tc < colsLeft ? B[tr * N + tc] : 0.0f;
        __syncthreads();    /* both tiles complete */
        A += BLOCKSIZE;     /* 32 columns to the right */
        B += BLOCKSIZE * N; /* 32 rows down */
        for (int p = 0; p < BLOCKSIZE; ++p) sum += As[tr * BLOCKSIZE + p] * Bs[p * BLOCKSIZE + tc];
        __syncthreads(); /* everyone done reading before the next copy */
    }
    if (tr < rowsLeft && tc < colsLeft) {
        float *out = &C[tr * N + tc];
        *out = beta == 0.0f ? alpha * sum : alpha * sum + beta * *out;
    }
}

extern "C" void sgemm_naive(int, int, int, float, const float *, const float *, float, float *) {}
extern "C" void sgemm_coalesced(int, int, int, float, const float *, const float *, float, float *) {}
extern "C" void sgemm_smem_tiled(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    dim3 grid((M + BLOCKSIZE - 1) / BLOCKSIZE, (N + BLOCKSIZE - 1) / BLOCKSIZE), block(BLOCKSIZE * BLOCKSIZE);
    /* all of L1 that can be shared memory, as the worklog does: its kernel reads global memory only
     * through the shared tiles */
    cudaFuncSetAttribute(smem_block_kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                         cudaSharedmemCarveoutMaxShared);
    smem_block_kernel<<<grid, block>>>(M, N, K, alpha, A, B, beta, C);
}
extern "C" void sgemm_coarsened(int, int, int, float, const float *, const float *, float, float *) {}
extern "C" void sgemm_register_2d(int, int, int, float, const float *, const float *, float, float *) {}
extern "C" void sgemm_vectorized(int, int, int, float, const float *, const float *, float, float *) {}
