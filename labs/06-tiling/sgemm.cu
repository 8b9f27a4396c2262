/* sgemm.cu - lab 06: your CUDA kernels. This is the one file you edit for this lab.
 *
 * Read handouts/06-tiling.md first. The prototypes are in grading/06-tiling/sgemm.h (do not edit
 * it). Grade with:  make grade LAB=06   (on a machine with an NVIDIA GPU)
 *
 * Every function computes C = alpha A B + beta C in float, row-major: A is M x K (lda = K), B is
 * K x N (ldb = N), C is M x N (ldc = N), for any M, N, K >= 1 (not only multiples of your tile).
 * When beta == 0, do not read C: it may hold NaN.
 *
 * Rules the grader enforces: every pointer you get is already on the device; launch your kernels
 * on the default stream and return (the grader synchronises and times); make your kernels and
 * helpers `static` (only the functions of sgemm.h may be global); no cuBLAS, no tensor cores
 * (no wmma, mma or wgmma: plain float FMAs only); no cudaMalloc or cudaMemcpy. */
#include "sgemm.h"

#include <cuda_runtime.h>

/* ---------------------------------------------------------------- stage 1: naive */

/* TODO(stage 1): one thread per element of C: row = blockIdx.x * blockDim.x + threadIdx.x,
 * col = blockIdx.y * blockDim.y + threadIdx.y, with blocks of 32 x 32 threads covering C. The
 * thread sums A[row][p] * B[p][col] over p and writes alpha * sum + beta * C[row][col]. */
extern "C" void sgemm_naive(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    (void)M, (void)N, (void)K, (void)alpha, (void)A, (void)B, (void)beta, (void)C;
}

/* ---------------------------------------------------------------- stage 2: coalesced */

/* TODO(stage 2): the same kernel with threadIdx.x running along a row of C (col from x, row
 * from y), so that a warp reads consecutive elements of B and writes consecutive elements of C. */
extern "C" void sgemm_coalesced(int M, int N, int K, float alpha, const float *A, const float *B, float beta,
                                float *C)
{
    (void)M, (void)N, (void)K, (void)alpha, (void)A, (void)B, (void)beta, (void)C;
}

/* ---------------------------------------------------------------- stage 3: shared-memory tiles */

/* TODO(stage 3): a block of 32 x 32 threads per 32 x 32 tile of C. For each step along K, every
 * thread loads one element of a 32 x 32 tile of A and one of B into __shared__ arrays (zero past
 * the edges), __syncthreads(), accumulates 32 products from shared memory, __syncthreads(). */
extern "C" void sgemm_smem_tiled(int M, int N, int K, float alpha, const float *A, const float *B, float beta,
                                 float *C)
{
    (void)M, (void)N, (void)K, (void)alpha, (void)A, (void)B, (void)beta, (void)C;
}

/* ---------------------------------------------------------------- stage 4: 1D register tiling */

/* TODO(stage 4): each thread computes several elements of C (say 8 rows of one column) in a
 * local array, so that one value of B read from shared memory feeds 8 FMAs. A 64 x 64 tile of C
 * per block of 512 threads, with tiles of A (64 x 8) and B (8 x 64) in shared memory, works well. */
extern "C" void sgemm_coarsened(int M, int N, int K, float alpha, const float *A, const float *B, float beta,
                                float *C)
{
    (void)M, (void)N, (void)K, (void)alpha, (void)A, (void)B, (void)beta, (void)C;
}

/* ---------------------------------------------------------------- stage 5: 2D register tiling */

/* TODO(stage 5): each of 256 threads computes an 8 x 8 block of a 128 x 128 tile of C: per step
 * of k it loads 8 values of A and 8 of B from shared memory into registers and does their 64
 * products (an outer product). Keep the register arrays indexed by constants (unrolled loops). */
extern "C" void sgemm_register_2d(int M, int N, int K, float alpha, const float *A, const float *B, float beta,
                                  float *C)
{
    (void)M, (void)N, (void)K, (void)alpha, (void)A, (void)B, (void)beta, (void)C;
}

/* ---------------------------------------------------------------- stage 6: vectorised */

/* TODO(stage 6): stage 5 with float4 global loads, A's tile stored transposed in shared memory
 * so that the inner loop reads float4s of both tiles, padding (or a swizzle) against bank
 * conflicts, and optionally two shared buffers so the next tile loads while this one computes.
 * float4 loads need K % 4 == 0, N % 4 == 0 and 16-byte aligned pointers: else use scalar loads. */
extern "C" void sgemm_vectorized(int M, int N, int K, float alpha, const float *A, const float *B, float beta,
                                 float *C)
{
    (void)M, (void)N, (void)K, (void)alpha, (void)A, (void)B, (void)beta, (void)C;
}
