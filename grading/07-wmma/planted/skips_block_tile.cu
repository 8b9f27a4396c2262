/* expect: technique in block_tile
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * A stage skipped: `block_tile` runs stage 1's code, one warp a 16 x 16 tile of C with its WMMA
 * fragments loaded straight from global memory (eight warps side by side, as the honest variant
 * has it). Right at every size, and faster than `block_tile`'s 2% of cuBLAS; it stages nothing in
 * shared memory, which is what the stage teaches. */
#include "wmma_gemm.h"

#include <cuda_runtime.h>
#include <mma.h>

using namespace nvcuda;

static __global__ void warp_tiles(int M, int N, int K, const __half *A, const __half *B, float *C)
{
    int tm = blockIdx.y, tn = blockIdx.x * 8 + threadIdx.x / 32;
    if (tn * 16 >= N) return; /* whole warps */
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k = 0; k < K; k += 16) {
        wmma::load_matrix_sync(fa, A + (size_t)tm * 16 * K + k, K);
        wmma::load_matrix_sync(fb, B + (size_t)k * N + tn * 16, N);
        wmma::mma_sync(acc, fa, fb, acc);
    }
    wmma::store_matrix_sync(C + (size_t)tm * 16 * N + tn * 16, acc, N, wmma::mem_row_major);
}

static void mm(int M, int N, int K, const lab_half *A, const lab_half *B, float *C)
{
    warp_tiles<<<dim3((N + 127) / 128, M / 16), 256>>>(M, N, K, A, B, C);
}

#include "planted/entry_points.h"
