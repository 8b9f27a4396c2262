/* honest: WMMA in a second set of shapes: a column of four warps (64 x 16 of C) for the
 * warp-per-tile stage; 128 x 64 x 16 block tiles of eight warps for the shared-memory stage;
 * 128 x 128 x 32 padded tiles of eight warps as 4 x 2 of 32 x 64 (the reference: 2 x 4 of
 * 64 x 32); and for the pipelined stage WMMA over a three-stage cp.async ring of 256 x 128 x 64
 * tiles, eight warps of 64 x 64 (4 x 4 fragments).
 * A correct submission written differently from the reference: the grader must pass it.
 * Not run on a GPU by its author: written to be clearly correct; the padded and pipelined
 * stages are the ones whose speed (15% and 35% of cuBLAS required) is least certain. */
#include "wmma_gemm.h"

#include <cuda_runtime.h>
#include <mma.h>

using namespace nvcuda;

typedef wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> frag_a;
typedef wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> frag_b;
typedef wmma::fragment<wmma::accumulator, 16, 16, 16, float> frag_c;

static __host__ __device__ int up(int a, int b) { return (a + b - 1) / b; }

/* ================================================================ one warp per 16 x 16 tile */

/* Four warps one above the other: a block covers 64 rows x 16 columns, the warps sharing B's
 * columns. */
static __global__ void warp_tile_kernel(int M, int N, int K, const __half *A, const __half *B, float *C)
{
    int tm = blockIdx.y * 4 + threadIdx.x / 32, tn = blockIdx.x;
    if (tm * 16 >= M) return; /* whole warps */
    frag_a fa;
    frag_b fb;
    frag_c acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k = 0; k < K; k += 16) {
        wmma::load_matrix_sync(fa, A + (size_t)tm * 16 * K + k, K);
        wmma::load_matrix_sync(fb, B + (size_t)k * N + tn * 16, N);
        wmma::mma_sync(acc, fa, fb, acc);
    }
    wmma::store_matrix_sync(C + (size_t)tm * 16 * N + tn * 16, acc, N, wmma::mem_row_major);
}

extern "C" void wmma_warp_tile(int M, int N, int K, const lab_half *A, const lab_half *B, float *C)
{
    warp_tile_kernel<<<dim3(N / 16, up(M, 64)), 128>>>(M, N, K, A, B, C);
}

/* ================================================================ 128 x 64 block tiles in shared memory */

/* Eight warps as 4 x 2, each 32 x 32 of C; K in steps of 16, staged one half at a time. */
static __global__ void __launch_bounds__(256) block_tile_kernel(int M, int N, int K, const __half *A, const __half *B, float *C)
{
    __shared__ __align__(32) __half As[128][16];
    __shared__ __align__(32) __half Bs[16][64];
    int tid = threadIdx.x, warp = tid / 32, row0 = blockIdx.y * 128, col0 = blockIdx.x * 64;
    int wm = warp / 2 * 32, wn = warp % 2 * 32;
    const __half zero = __float2half(0.0f);
    frag_c acc[2][2];
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) wmma::fill_fragment(acc[i][j], 0.0f);
    for (int k0 = 0; k0 < K; k0 += 16) {
        for (int e = tid; e < 128 * 16; e += 256) {
            int r = e / 16, c = e % 16;
            As[r][c] = row0 + r < M && k0 + c < K ? A[(size_t)(row0 + r) * K + k0 + c] : zero;
        }
        for (int e = tid; e < 16 * 64; e += 256) {
            int r = e / 64, c = e % 64;
            Bs[r][c] = k0 + r < K && col0 + c < N ? B[(size_t)(k0 + r) * N + col0 + c] : zero;
        }
        __syncthreads();
        frag_a fa[2];
        frag_b fb[2];
        for (int i = 0; i < 2; i++) wmma::load_matrix_sync(fa[i], &As[wm + 16 * i][0], 16);
        for (int j = 0; j < 2; j++) wmma::load_matrix_sync(fb[j], &Bs[0][wn + 16 * j], 64);
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 2; j++) wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
        __syncthreads();
    }
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            int r = row0 + wm + 16 * i, c = col0 + wn + 16 * j;
            if (r < M && c < N) wmma::store_matrix_sync(C + (size_t)r * N + c, acc[i][j], N, wmma::mem_row_major);
        }
}

extern "C" void wmma_block_tile(int M, int N, int K, const lab_half *A, const lab_half *B, float *C)
{
    block_tile_kernel<<<dim3(up(N, 64), up(M, 128)), 256>>>(M, N, K, A, B, C);
}

/* ================================================================ 16-byte copies of padded tiles, products, stores
 * (shared with the other honest variant) */
#include "honest/wmma_tiles.h"

/* ================================================================ padded: 128 x 128 x 32, eight warps of 32 x 64 */

#define P_BM 128
#define P_BN 128
#define P_BK 32

static __global__ void __launch_bounds__(256) padded_kernel(int M, int N, int K, const __half *A, const __half *B, float *C)
{
    __shared__ __align__(128) __half As[P_BM * (P_BK + PAD)];
    __shared__ __align__(128) __half Bs[P_BK * (P_BN + PAD)];
    int warp = threadIdx.x / 32, row0 = blockIdx.y * P_BM, col0 = blockIdx.x * P_BN;
    int wm = warp / 2 * 32, wn = warp % 2 * 64;
    frag_c acc[2][4];
#pragma unroll
    for (int i = 0; i < 2; i++)
#pragma unroll
        for (int j = 0; j < 4; j++) wmma::fill_fragment(acc[i][j], 0.0f);
    for (int k0 = 0; k0 < K; k0 += P_BK) {
        copy_tile<P_BM, P_BK, 256, false>(As, A, K, row0, k0, M, K);
        copy_tile<P_BK, P_BN, 256, false>(Bs, B, N, k0, col0, K, N);
        __syncthreads();
        multiply<2, 4, P_BK, P_BK + PAD, P_BN + PAD>(acc, As + wm * (P_BK + PAD), Bs + wn);
        __syncthreads();
    }
    store(acc, C, M, N, row0 + wm, col0 + wn);
}

extern "C" void wmma_padded(int M, int N, int K, const lab_half *A, const lab_half *B, float *C)
{
    padded_kernel<<<dim3(up(N, P_BN), up(M, P_BM)), 256>>>(M, N, K, A, B, C);
}

/* ================================================================ pipelined: a 3-stage cp.async ring */

/* 256 x 128 x 64 tiles, eight warps as 4 x 2 of 64 x 64 (4 x 4 fragments: each fragment loaded
 * is used four times). Three tiles of A and B in shared memory (163 KB, dynamic: over 48 KB
 * needs the opt-in): while the warps multiply tile t, the copies of tiles t + 1 and t + 2 are
 * in flight. One barrier a tile. */
#define Q_BM 256
#define Q_BN 128
#define Q_BK 64
#define Q_STAGES 3
#define Q_LDA (Q_BK + PAD)
#define Q_LDB (Q_BN + PAD)
#define Q_A (Q_BM * Q_LDA) /* halves of one stage of A */
#define Q_B (Q_BK * Q_LDB)
#define Q_SMEM (Q_STAGES * (Q_A + Q_B) * (int)sizeof(__half))


static __global__ void __launch_bounds__(256, 1) pipelined_kernel(int M, int N, int K, const __half *A, const __half *B, float *C)
{
#if __CUDA_ARCH__ >= 800
    extern __shared__ __align__(128) unsigned char smem[];
    __half *sa = (__half *)smem, *sb = sa + Q_STAGES * Q_A;
    int warp = threadIdx.x / 32, row0 = blockIdx.y * Q_BM, col0 = blockIdx.x * Q_BN;
    int wm = warp / 2 * 64, wn = warp % 2 * 64;
    frag_c acc[4][4];
#pragma unroll
    for (int i = 0; i < 4; i++)
#pragma unroll
        for (int j = 0; j < 4; j++) wmma::fill_fragment(acc[i][j], 0.0f);
    int tiles = up(K, Q_BK);
    auto load = [&](int t) { /* tile t into stage t % Q_STAGES */
        int s = t % Q_STAGES, k0 = t * Q_BK;
        copy_tile<Q_BM, Q_BK, 256, true>(sa + s * Q_A, A, K, row0, k0, M, K);
        copy_tile<Q_BK, Q_BN, 256, true>(sb + s * Q_B, B, N, k0, col0, K, N);
    };
    /* Group g always holds tile g (an empty group past the last tile), so "all but
     * Q_STAGES - 2 groups done" at iteration t means tile t has landed, for this thread. */
    for (int t = 0; t < Q_STAGES - 1; t++) {
        if (t < tiles) load(t);
        commit();
    }
    for (int t = 0; t < tiles; t++) {
        wait_groups<Q_STAGES - 2>();
        __syncthreads(); /* tile t is whole for everyone; and everyone is done with tile t - 1 */
        if (t + Q_STAGES - 1 < tiles) load(t + Q_STAGES - 1); /* into tile t - 1's stage */
        commit();
        int s = t % Q_STAGES;
        multiply<4, 4, Q_BK, Q_LDA, Q_LDB>(acc, sa + s * Q_A + wm * Q_LDA, sb + s * Q_B + wn);
    }
    store(acc, C, M, N, row0 + wm, col0 + wn);
#endif
}

extern "C" void wmma_pipelined(int M, int N, int K, const lab_half *A, const lab_half *B, float *C)
{
    int device = 0, major = 0, optin = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
    cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
    if (major < 8 || optin < Q_SMEM) { /* no cp.async before Ampere; 163 KB of shared memory */
        wmma_padded(M, N, K, A, B, C);
        return;
    }
    cudaFuncSetAttribute(pipelined_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, Q_SMEM);
    pipelined_kernel<<<dim3(up(N, Q_BN), up(M, Q_BM)), 256, Q_SMEM>>>(M, N, K, A, B, C);
}
