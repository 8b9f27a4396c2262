/* wmma_gemm.cu - lab 07: your CUDA kernels. This is the one file you edit for this lab.
 *
 * Read handouts/07-wmma.md first. The prototypes are in grading/07-wmma/wmma_gemm.h (do not
 * edit it). Grade with:  make grade LAB=07   (on a machine with an NVIDIA GPU, sm_70 or later)
 *
 * Every function computes C = A B: A is M x K half (lda = K), B is K x N half (ldb = N), C is
 * M x N float (ldc = N), all row-major, summed in float with nvcuda::wmma (#include <mma.h>;
 * 16 x 16 x 16 fragments, row_major A and B). M, N and K are multiples of 16, but not always of
 * your block tile. C holds garbage when you get it: write every element, read none.
 *
 * Rules the grader enforces: every pointer you get is already on the device; launch your kernels
 * on the default stream and return (the grader synchronises and times); make your kernels and
 * helpers `static` (only the functions of wmma_gemm.h may be global); no cudaMalloc or
 * cudaMemcpy, and no cuBLAS. */
#include "wmma_gemm.h"

#include <cuda_runtime.h>
#include <mma.h>

/* ---------------------------------------------------------------- stage 1: one warp per tile */

/* TODO(stage 1): one warp per 16 x 16 tile of C. Fill an accumulator fragment with zeros, then for
 * k = 0, 16, 32 ... load the A fragment at row 16 tm, column k (ldm = K) and the B fragment at
 * row k, column 16 tn (ldm = N) straight from global memory, mma_sync, and store the result.
 * Launch enough warps to cover (M / 16) x (N / 16) tiles. */
extern "C" void wmma_warp_tile(int M, int N, int K, const lab_half *A, const lab_half *B, float *C)
{
    (void)M, (void)N, (void)K, (void)A, (void)B, (void)C;
}

/* ---------------------------------------------------------------- stage 2: shared-memory tiles */

/* TODO(stage 2): a block of 16 warps computes a 128 x 128 tile of C, each warp a 32 x 32 piece
 * (2 x 2 fragments). Step K by 32: copy the 128 x 32 tile of A and the 32 x 128 tile of B into
 * shared memory (zeros past the edges), __syncthreads(), multiply from shared memory,
 * __syncthreads() again. Store only the fragments inside C. */
extern "C" void wmma_block_tile(int M, int N, int K, const lab_half *A, const lab_half *B, float *C)
{
    (void)M, (void)N, (void)K, (void)A, (void)B, (void)C;
}

/* ---------------------------------------------------------------- stage 3: padding, wide loads */

/* TODO(stage 3): stage 2, faster: pad each shared row by 8 halves so that fragment loads hit
 * different banks, copy with 16-byte (uint4) loads and stores, and give each warp a bigger piece
 * (64 x 32 or 64 x 64) so that every fragment it loads is used in more products. */
extern "C" void wmma_padded(int M, int N, int K, const lab_half *A, const lab_half *B, float *C)
{
    (void)M, (void)N, (void)K, (void)A, (void)B, (void)C;
}

/* ---------------------------------------------------------------- stage 4: a copy pipeline */

/* TODO(stage 4): keep 3 or 4 K-tiles in shared memory and copy them with cp.async (sm_80 and
 * later; plain copies where __CUDA_ARCH__ < 800), so that the copies of the next tiles overlap
 * the products of this one: cp.async.commit_group after each tile's copies, cp.async.wait_group
 * and __syncthreads() before using one. Big tiles (128 x 256, warps of 64 x 64) need more than
 * 48 KB of dynamic shared memory: cudaFuncSetAttribute. */
extern "C" void wmma_pipelined(int M, int N, int K, const lab_half *A, const lab_half *B, float *C)
{
    (void)M, (void)N, (void)K, (void)A, (void)B, (void)C;
}
