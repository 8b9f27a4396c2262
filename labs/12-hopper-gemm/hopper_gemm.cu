/* hopper_gemm.cu - lab 12: your CUDA kernels. This is the one file you edit for this lab.
 *
 * Read handouts/12-hopper-gemm.md first. The prototypes are in grading/12-hopper-gemm/hopper_gemm.h
 * and the Hopper instructions, wrapped, in grading/12-hopper-gemm/hopper_ptx.h (edit neither).
 * Grade with:  make grade LAB=12   (on a Hopper GPU, compute capability 9.0: H100, H200, GH200)
 *
 * Every function computes C = A B: A is M x K half (row-major, K contiguous: wgmma reads it
 * K-major), B is K x N half (row-major, N contiguous: wgmma reads it MN-major, "transposed"),
 * C is M x N float (row-major), summed in float. M and N are multiples of 256, K of 64. C holds
 * garbage when you get it: write every element, read none.
 *
 * Rules the grader enforces: every pointer you get is already on the device; launch your kernels
 * on the default stream and return (the grader synchronises and times); make your kernels and
 * helpers `static` (only the functions of hopper_gemm.h may be global); no cudaMalloc or
 * cudaMemcpy, and no cuBLAS. Of the driver API, cuTensorMapEncodeTiled alone (for stages 2-4).
 * Built with -gencode=arch=compute_90a,code=sm_90a: wgmma and setmaxnreg exist nowhere else. */
#include "hopper_gemm.h"
#include "hopper_ptx.h"

#include <cuda.h>
#include <cuda_runtime.h>

/* ---------------------------------------------------------------- stage 1: wgmma */

/* TODO(stage 1): one warpgroup (128 threads) a 64 x 128 (or 128 x 128) tile of C. For each k tile
 * of 64: copy A's tile (64 rows of 128 bytes) and B's (64 k rows of 128 columns: two blocks of 64
 * columns) into __shared__ __align__(1024) arrays with 16-byte loads, each 16-byte chunk c of row
 * r at chunk c ^ (r % 8) (the 128-byte swizzle); fence_proxy_async(), __syncthreads(); then
 * wgmma_fence() and four wgmma_m64n128k16 (k steps of 16), each with a descriptor for A's tile
 * (K-major) and B's (MN-major); wgmma_commit(), wgmma_wait<0>(), __syncthreads(). The
 * accumulators' layout, for the store, is in the handout. */
extern "C" void hopper_wgmma(int M, int N, int K, const lab_half *A, const lab_half *B, float *C)
{
    (void)M, (void)N, (void)K, (void)A, (void)B, (void)C;
}

/* ---------------------------------------------------------------- stage 2: TMA */

/* TODO(stage 2): the same tile, but the copies made by the TMA: a CUtensorMap for each matrix
 * (cuTensorMapEncodeTiled: boxes of 64 columns by BM or 64 rows, CU_TENSOR_MAP_SWIZZLE_128B),
 * passed as `const __grid_constant__ CUtensorMap` kernel parameters; a ring of 3 or 4 stages in
 * dynamic shared memory, each with an mbarrier. One thread starts every copy (mbar_expect with
 * the stage's bytes, then tma_load); everyone waits on the stage's barrier (mbar_wait, the parity
 * flipping each time round the ring) before its MMAs, and a stage is refilled only after the MMAs
 * that read it are done (wgmma_wait<1>() leaves one group in flight). */
extern "C" void hopper_tma(int M, int N, int K, const lab_half *A, const lab_half *B, float *C)
{
    (void)M, (void)N, (void)K, (void)A, (void)B, (void)C;
}

/* ---------------------------------------------------------------- stage 3: warp specialisation */

/* TODO(stage 3): 384 threads (__launch_bounds__(384, 1)), 128 x 256 tiles: warpgroup 0 the
 * producer (setmaxnreg_dec<40>(); one thread issues every copy, waiting on each stage's "empty"
 * barrier before refilling it), warpgroups 1 and 2 the consumers (setmaxnreg_inc<232>(); 64 rows
 * each, wgmma_m64n256k16; after each k tile's MMAs are done, one arrival from the group on that
 * stage's empty barrier). */
extern "C" void hopper_specialised(int M, int N, int K, const lab_half *A, const lab_half *B, float *C)
{
    (void)M, (void)N, (void)K, (void)A, (void)B, (void)C;
}

/* ---------------------------------------------------------------- stage 4: persistent, clusters */

/* TODO(stage 4): stage 3 on a persistent grid: as many blocks as SMs (an even number), each
 * walking tiles i = blockIdx, + gridDim ... in groups of 8 tile rows, its ring position carried
 * from tile to tile; then clusters of 2 blocks (cudaLaunchKernelEx with
 * cudaLaunchAttributeClusterDimension) on vertically adjacent tiles, each loading its own A and
 * half of their common B tile for both (tma_multicast, mask 0x3), the empty barriers counting
 * both blocks' consumers (mbar_arrive_in), a cluster_sync() at the start and the end. */
extern "C" void hopper_persistent(int M, int N, int K, const lab_half *A, const lab_half *B, float *C)
{
    (void)M, (void)N, (void)K, (void)A, (void)B, (void)C;
}
