/* expect: technique in pipelined
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * A stage skipped: `pipelined` runs stage 3's code, 64 x 128 x 32 padded tiles of four warps with
 * 16-byte loads through registers (the honest variants' copies and products, honest/
 * wmma_tiles.h). Right at every size; it has no asynchronous copy (cp.async), which is what the
 * stage's pipeline is made of. */
#include "wmma_gemm.h"

#include <cuda_runtime.h>
#include <mma.h>

using namespace nvcuda;

typedef wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> frag_a;
typedef wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> frag_b;
typedef wmma::fragment<wmma::accumulator, 16, 16, 16, float> frag_c;

#include "honest/wmma_tiles.h"

static __global__ void __launch_bounds__(128) padded_kernel(int M, int N, int K, const __half *A, const __half *B, float *C)
{
    __shared__ __align__(128) __half As[64 * (32 + PAD)];
    __shared__ __align__(128) __half Bs[32 * (128 + PAD)];
    int warp = threadIdx.x / 32, row0 = blockIdx.y * 64, col0 = blockIdx.x * 128;
    int wm = warp / 2 * 32, wn = warp % 2 * 64;
    frag_c acc[2][4];
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 4; j++) wmma::fill_fragment(acc[i][j], 0.0f);
    for (int k0 = 0; k0 < K; k0 += 32) {
        copy_tile<64, 32, 128, false>(As, A, K, row0, k0, M, K);
        copy_tile<32, 128, 128, false>(Bs, B, N, k0, col0, K, N);
        __syncthreads();
        multiply<2, 4, 32, 32 + PAD, 128 + PAD>(acc, As + wm * (32 + PAD), Bs + wn);
        __syncthreads();
    }
    store(acc, C, M, N, row0 + wm, col0 + wn);
}

static void mm(int M, int N, int K, const lab_half *A, const lab_half *B, float *C)
{
    padded_kernel<<<dim3((N + 127) / 128, (M + 63) / 64), 128>>>(M, N, K, A, B, C);
}

#include "planted/entry_points.h"
