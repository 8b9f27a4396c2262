/* expect: too-slow in padded
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * A stage skipped: `padded` runs stage 2's code: a 128 x 128 tile of C a block, A and B staged in
 * shared memory 32 deep with rows of 64 and 256 bytes (unpadded), copied a half at a time, 16
 * warps of 2 x 2 fragments. Right at every size; about 4% of cuBLAS, as `block_tile`'s reference,
 * where padded rows and 16-byte copies reach 26-28%. */
#include "wmma_gemm.h"

#include <cuda_runtime.h>
#include <mma.h>

using namespace nvcuda;

static __global__ void __launch_bounds__(512) unpadded_tiles(int M, int N, int K, const __half *A, const __half *B, float *C)
{
    __shared__ __align__(32) __half As[128][32];
    __shared__ __align__(32) __half Bs[32][128];
    int t = threadIdx.x, warp = t / 32, r0 = blockIdx.y * 128, c0 = blockIdx.x * 128;
    int wr = warp / 4 * 32, wc = warp % 4 * 32;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) wmma::fill_fragment(acc[i][j], 0.0f);
    for (int k0 = 0; k0 < K; k0 += 32) {
        for (int e = t; e < 128 * 32; e += 512) {
            int r = e / 32, c = e % 32;
            As[r][c] = r0 + r < M && k0 + c < K ? A[(size_t)(r0 + r) * K + k0 + c] : __float2half(0.0f);
        }
        for (int e = t; e < 32 * 128; e += 512) {
            int r = e / 128, c = e % 128;
            Bs[r][c] = k0 + r < K && c0 + c < N ? B[(size_t)(k0 + r) * N + c0 + c] : __float2half(0.0f);
        }
        __syncthreads();
        for (int kk = 0; kk < 32; kk += 16) {
            wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa[2];
            wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fb[2];
            for (int i = 0; i < 2; i++) wmma::load_matrix_sync(fa[i], &As[wr + 16 * i][kk], 32);
            for (int j = 0; j < 2; j++) wmma::load_matrix_sync(fb[j], &Bs[kk][wc + 16 * j], 128);
            for (int i = 0; i < 2; i++)
                for (int j = 0; j < 2; j++) wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
        }
        __syncthreads();
    }
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            int r = r0 + wr + 16 * i, c = c0 + wc + 16 * j;
            if (r < M && c < N) wmma::store_matrix_sync(C + (size_t)r * N + c, acc[i][j], N, wmma::mem_row_major);
        }
}

static void mm(int M, int N, int K, const __half *A, const __half *B, float *C)
{
    dim3 grid((N + 127) / 128, (M + 127) / 128);
    unpadded_tiles<<<grid, 512>>>(M, N, K, A, B, C);
}

#include "planted/entry_points.h"
