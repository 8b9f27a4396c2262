/* samples_tensorcore.h - the shared building blocks of lab 07's textbook files: a tensor-core
 * GEMM laid out as in NVIDIA's cuda-samples cudaTensorCoreGemm (Samples/3_CUDA_Features/
 * cudaTensorCoreGemm, its WMMA kernel). The code and comments here are this project's; the
 * design, and its figures, are the sample's:
 *  - a thread block of 8 warps (256 threads) owns a 128 x 128 tile of C at a time; the warps
 *    stand 4 down and 2 across, each owning 32 x 64 of the tile (2 x 4 WMMA fragments of
 *    16 x 16 x 16, half inputs, float sums);
 *  - K is consumed 64 at a time (the sample's setting for 64 KB of shared memory): 128 x 64 of A
 *    and 64 x 128 of B go to shared memory, A's by warps 0-3 and B's by warps 4-7, every lane
 *    moving 16 bytes (8 halves) a step;
 *  - per 16-wide step of K a warp reads its 4 B fragments once and multiplies each against both
 *    of its A fragments;
 *  - the finished tile is written to shared memory as floats (over the A and B buffers) and then
 *    copied out a row of 128 floats per warp instruction, 16 rows per warp;
 *  - the grid has one block per multiprocessor, and each block visits the tiles of C in
 *    row-major order, gridDim.x tiles apart (a persistent kernel);
 *  - shared rows can be lengthened by a skew (the sample uses 16 halves, 32 bytes, which keeps
 *    every row 32-byte aligned as WMMA loads need): PAD below, 0 in samples_tensorcore_block.cu,
 *    16 in samples_tensorcore_skew.cu and samples_async_copy.cu.
 *
 * What differs from the sample, for the lab's interface (wmma_gemm.h):
 *  - B is K x N row-major (the sample's is column-major), so B's shared buffer holds 64 rows of
 *    128 (+ PAD) halves copied as they lie, and the matrix_b fragments are row_major; a
 *    B-copying warp moves 16 of those rows, 2 per step (16 lanes a row), in 8 steps, as an
 *    A-copying warp moves its 32 rows of 64 halves, 4 per step (8 lanes a row), in 8 steps;
 *  - C = A B only: the accumulators start at zero and C is never read (it holds garbage);
 *  - M, N, K come at run time and are multiples of 16 only: 16-byte pieces outside A or B are
 *    written to shared memory as zeros, the tile count is rounded up, and rows or 16-byte pieces
 *    of the result outside C are skipped;
 *  - the multiprocessor count comes from cudaDeviceGetAttribute; the dynamic shared memory
 *    (64 KB, the float tile, more than the default 48 KB) is requested with
 *    cudaFuncSetAttribute, as in the sample. */
#ifndef SAMPLES_TENSORCORE_H
#define SAMPLES_TENSORCORE_H

#include <cuda_runtime.h>
#include <mma.h>

namespace tcg
{

namespace wm = nvcuda::wmma;

/* Sizes, in elements. */
constexpr int FRAG = 16;                                 /* WMMA fragment: 16 x 16 x 16 */
constexpr int TILE_M = 128, TILE_N = 128;                /* C per block */
constexpr int KSLAB = 64;                                /* K per trip through shared memory */
constexpr int WARP_M = 32, WARP_N = 64;                  /* C per warp */
constexpr int FM = WARP_M / FRAG;                        /* 2 fragments down a warp's piece */
constexpr int FN = WARP_N / FRAG;                        /* 4 fragments across it */
constexpr int WARPS_ACROSS = TILE_N / WARP_N;            /* 2 */
constexpr int NWARPS = (TILE_M / WARP_M) * WARPS_ACROSS; /* 8 */
constexpr int NTHREADS = 32 * NWARPS;                    /* 256 */
constexpr int LOADERS = NWARPS / 2;                      /* warps per operand: 4 for A, 4 for B */
constexpr int VEC = 8;                                   /* halves in one 16-byte move */
constexpr int PADDED = 16;                               /* the skew of the padded files, in halves */

/* One set of A and B buffers in shared memory: A's 128 x 64 piece then B's 64 x 128 piece,
 * each row PAD halves longer than its data. */
template <int PAD> struct Slab {
    static constexpr int LDA = KSLAB + PAD;
    static constexpr int LDB = TILE_N + PAD;
    static constexpr int A_HALVES = TILE_M * LDA;
    static constexpr int HALVES = A_HALVES + KSLAB * LDB;
    static constexpr size_t BYTES = HALVES * sizeof(half);
};

/* The result tile, staged as floats at the start of the same shared memory. */
constexpr size_t TILE_BYTES = (size_t)TILE_M * TILE_N * sizeof(float);

constexpr size_t larger(size_t x, size_t y) { return x > y ? x : y; }

typedef wm::fragment<wm::matrix_a, FRAG, FRAG, FRAG, half, wm::row_major> FragA;
typedef wm::fragment<wm::matrix_b, FRAG, FRAG, FRAG, half, wm::row_major> FragB;
typedef wm::fragment<wm::accumulator, FRAG, FRAG, FRAG, float> FragC;

/* Start of the block's dynamic shared memory (every kernel here declares it the same way). */
static __device__ __forceinline__ unsigned char *dyn_smem()
{
    extern __shared__ __align__(16) unsigned char tcg_dynamic_smem[];
    return tcg_dynamic_smem;
}

/* Ways of putting one 16-byte piece into shared memory at `to`: when `inside`, the piece at
 * g + at of global memory; otherwise zeros (and g + at, outside the matrix, is not read). */
struct PlainMove {
    __device__ __forceinline__ void operator()(half *to, const half *g, size_t at, bool inside) const
    {
        *reinterpret_cast<int4 *>(to) = inside ? *reinterpret_cast<const int4 *>(g + at) : make_int4(0, 0, 0, 0);
    }
};

/* A warp's share of one operand: STEPS x (32 / SPAN) consecutive rows of the global matrix
 * `g` (leading dimension gld) from (row, col), each row SPAN x 8 halves read by SPAN lanes, to
 * shared rows of sld halves at `s`. Pieces at or past (rows, cols) of the matrix are zeros. */
template <int SPAN, int STEPS, class Move>
static __device__ __forceinline__ void warp_fill(half *s, int sld, const half *g, size_t gld, unsigned row,
                                                 unsigned col, unsigned rows, unsigned cols, unsigned lane, Move move)
{
    constexpr int ROWS_PER_STEP = 32 / SPAN;
    const unsigned c = lane % SPAN * VEC, gc = col + c;
    unsigned gr = row + lane / SPAN;
    s += lane / SPAN * sld + c;
#pragma unroll
    for (int step = 0; step < STEPS; ++step) {
        const bool inside = gr < rows && gc < cols;
        move(s, g, (size_t)gr * gld + gc, inside);
        gr += ROWS_PER_STEP;
        s += ROWS_PER_STEP * sld;
    }
}

/* The whole block fills one set of buffers with A[m0.., k0..] and B[k0.., n0..]. */
template <int PAD, class Move>
static __device__ __forceinline__ void block_fill(half *buf, const half *A, const half *B, unsigned M, unsigned N,
                                                  unsigned K, unsigned m0, unsigned n0, unsigned k0, unsigned warp,
                                                  unsigned lane, Move move)
{
    typedef Slab<PAD> L;
    constexpr int A_SPAN = KSLAB / VEC, A_ROWS = TILE_M / LOADERS; /* 8 lanes a row, 32 rows */
    constexpr int B_SPAN = TILE_N / VEC, B_ROWS = KSLAB / LOADERS; /* 16 lanes a row, 16 rows */
    if (warp < LOADERS) {
        const unsigned first = warp * A_ROWS;
        warp_fill<A_SPAN, A_ROWS * A_SPAN / 32>(buf + first * L::LDA, L::LDA, A, K, m0 + first, k0, M, K, lane, move);
    } else {
        const unsigned first = (warp - LOADERS) * B_ROWS;
        warp_fill<B_SPAN, B_ROWS * B_SPAN / 32>(buf + L::A_HALVES + first * L::LDB, L::LDB, B, N, k0 + first, n0, K, N,
                                                lane, move);
    }
}

/* One warp's products over a filled set of buffers: for every 16 of K, its 4 B fragments are
 * read once and each meets both A fragments. */
template <int PAD>
static __device__ __forceinline__ void warp_multiply(FragC (&acc)[FM][FN], const half *buf, unsigned warp)
{
    typedef Slab<PAD> L;
    const half *a = buf + (warp / WARPS_ACROSS) * WARP_M * L::LDA;
    const half *b = buf + L::A_HALVES + (warp % WARPS_ACROSS) * WARP_N;
#pragma unroll
    for (int kk = 0; kk < KSLAB; kk += FRAG) {
        FragA fa[FM];
        FragB fb[FN];
#pragma unroll
        for (int j = 0; j < FN; ++j) wm::load_matrix_sync(fb[j], b + kk * L::LDB + j * FRAG, L::LDB);
#pragma unroll
        for (int i = 0; i < FM; ++i) wm::load_matrix_sync(fa[i], a + i * FRAG * L::LDA + kk, L::LDA);
#pragma unroll
        for (int i = 0; i < FM; ++i)
#pragma unroll
            for (int j = 0; j < FN; ++j) wm::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
    }
}

static __device__ __forceinline__ void zero(FragC (&acc)[FM][FN])
{
#pragma unroll
    for (int i = 0; i < FM; ++i)
#pragma unroll
        for (int j = 0; j < FN; ++j) wm::fill_fragment(acc[i][j], 0.0f);
}

/* Out through shared memory: every warp parks its fragments in the float tile, then warp w
 * copies rows 16 w .. 16 w + 15 of the tile to C, lane l taking floats 4 l .. 4 l + 3 of a row.
 * Must follow a barrier after the last reads of the A and B buffers (the tile overwrites them);
 * ends with a barrier, so the next tile's fills may begin. */
static __device__ __forceinline__ void write_tile(const FragC (&acc)[FM][FN], float *C, unsigned M, unsigned N,
                                                  unsigned m0, unsigned n0, unsigned warp, unsigned lane)
{
    constexpr int BAND = TILE_M / NWARPS; /* 16 rows */
    float *tile = reinterpret_cast<float *>(dyn_smem());
    float *mine = tile + (warp / WARPS_ACROSS) * WARP_M * TILE_N + (warp % WARPS_ACROSS) * WARP_N;
#pragma unroll
    for (int i = 0; i < FM; ++i)
#pragma unroll
        for (int j = 0; j < FN; ++j)
            wm::store_matrix_sync(mine + i * FRAG * TILE_N + j * FRAG, acc[i][j], TILE_N, wm::mem_row_major);
    __syncthreads();

    const unsigned col = n0 + lane * 4, top = m0 + warp * BAND;
    const bool col_ok = col < N;
    const float *from = tile + warp * BAND * TILE_N + lane * 4;
    float *to = C + (size_t)top * N + col;
#pragma unroll
    for (int r = 0; r < BAND; ++r) {
        if (col_ok && top + r < M)
            *reinterpret_cast<float4 *>(to + (size_t)r * N) = *reinterpret_cast<const float4 *>(from + r * TILE_N);
    }
    __syncthreads();
}

/* The synchronous kernel: per tile, per 64 of K, fill the buffers, barrier, multiply, barrier. */
template <int PAD> static __global__ void tiled_gemm(const half *A, const half *B, float *C, int M, int N, int K)
{
    half *buf = reinterpret_cast<half *>(dyn_smem());
    const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const unsigned across = (N + TILE_N - 1) / TILE_N;
    const unsigned tiles = (M + TILE_M - 1) / TILE_M * across;

    for (unsigned t = blockIdx.x; t < tiles; t += gridDim.x) {
        const unsigned m0 = t / across * TILE_M, n0 = t % across * TILE_N;

        FragC acc[FM][FN];
        zero(acc);

        for (unsigned k0 = 0; k0 < (unsigned)K; k0 += KSLAB) {
            block_fill<PAD>(buf, A, B, M, N, K, m0, n0, k0, warp, lane, PlainMove());
            __syncthreads();
            warp_multiply<PAD>(acc, buf, warp);
            __syncthreads();
        }

        write_tile(acc, C, M, N, m0, n0, warp, lane);
    }
}

/* Launch a kernel of this family: one block per multiprocessor, `bytes` of dynamic shared
 * memory allowed beyond the default first. */
template <class Kernel>
static void launch_persistent(Kernel kernel, size_t bytes, int M, int N, int K, const half *A, const half *B, float *C)
{
    int dev = 0, sm_count = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, dev);
    cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes);
    kernel<<<sm_count, NTHREADS, bytes>>>(A, B, C, M, N, K);
}

template <int PAD> static void tiled_gemm_run(int M, int N, int K, const half *A, const half *B, float *C)
{
    launch_persistent(tiled_gemm<PAD>, larger(Slab<PAD>::BYTES, TILE_BYTES), M, N, K, A, B, C);
}

} /* namespace tcg */

#endif
