/* expect: wrong
 * threats: 24 (rows of ../shared/GRADER_THREATS.md)
 * The warp-per-tile kernel as a well-known blog post first wrote it: the loop over K loads its
 * fragments from the same place every time, never moving along K. Right only when K = 16. */
#include "wmma_gemm.h"

#include <mma.h>

using namespace nvcuda;

static __global__ void tile(int M, int N, int K, const __half *A, const __half *B, float *C)
{
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int tiles_n = N / 16, tm = warp / tiles_n, tn = warp % tiles_n;
    if (tm >= M / 16) return;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
    wmma::fill_fragment(c, 0.0f);
    for (int k = 0; k < K; k += 16) {
        wmma::load_matrix_sync(a, A + (size_t)tm * 16 * K, K); /* should be + k */
        wmma::load_matrix_sync(b, B + (size_t)tn * 16, N);     /* should be + k * N */
        wmma::mma_sync(c, a, b, c);
    }
    wmma::store_matrix_sync(C + (size_t)tm * 16 * N + tn * 16, c, N, wmma::mem_row_major);
}

static void mm(int M, int N, int K, const lab_half *A, const lab_half *B, float *C)
{
    int warps = (M / 16) * (N / 16);
    tile<<<(warps + 3) / 4, 128>>>(M, N, K, A, B, C);
}

#include "planted/entry_points.h"
