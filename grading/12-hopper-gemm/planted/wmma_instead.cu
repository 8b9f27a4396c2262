/* expect: technique
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * Lab 07's tensor cores instead of Hopper's: WMMA (mma.sync, a warp's MMA) in every stage, one
 * warp a 16 x 16 tile of C from global memory. Right, and on an H100 lab 07's pipelined WMMA
 * reads about half of cuBLAS, above the first stages' lines: no stage's technique is there. */
#include "hopper_gemm.h"

#include <mma.h>

static __global__ void warp_tiles(int M, int N, int K, const __half *A, const __half *B, float *C)
{
    using namespace nvcuda;
    int warp = (int)((blockIdx.x * (size_t)blockDim.x + threadIdx.x) / 32), tiles_n = N / 16;
    if (warp >= M / 16 * tiles_n) return;
    int tm = warp / tiles_n, tn = warp % tiles_n;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
    wmma::fill_fragment(c, 0.0f);
    for (int k = 0; k < K; k += 16) {
        wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
        wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b;
        wmma::load_matrix_sync(a, A + (size_t)16 * tm * K + k, K);
        wmma::load_matrix_sync(b, B + (size_t)k * N + 16 * tn, N);
        wmma::mma_sync(c, a, b, c);
    }
    wmma::store_matrix_sync(C + (size_t)16 * tm * N + 16 * tn, c, N, wmma::mem_row_major);
}

static void mm(int M, int N, int K, const lab_half *A, const lab_half *B, float *C)
{
    long warps = (long)(M / 16) * (N / 16);
    warp_tiles<<<(unsigned)((warps * 32 + 255) / 256), 256>>>(M, N, K, A, B, C);
}

#include "planted/entry_points.h"
