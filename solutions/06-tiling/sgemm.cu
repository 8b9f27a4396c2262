/* sgemm.cu - lab 06 reference: C = alpha A B + beta C in float, six ways, each stage fixing what
 * the one before it wasted. Row-major throughout: A is M x K (lda = K), B is K x N (ldb = N), C is
 * M x N (ldc = N); any M, N, K >= 1. Every kernel and helper is static; the six launchers are the
 * lab's functions, launch on the default stream and return (the grader synchronises and times).
 * Plain FP32 FMA only: no tensor cores, no libraries. */
#include "sgemm.h"

#include <cuda_runtime.h>
#include <stdint.h>

/* CUDA_CHECK_LAST() comes from common/runner/cuda_check.h where that is on the include path (the bench
 * builds with -Icommon). The grader's audited build sees only the lab's folder, so there the
 * check is empty: the grader itself checks for errors after every stage. */
#if __has_include("cuda_check.h")
#include "cuda_check.h"
#else
#define CUDA_CHECK_LAST() ((void)0)
#endif

static __host__ __device__ int ceil_div(int a, int b) { return (a + b - 1) / b; }

/* alpha * acc + beta * C[i], never reading C when beta == 0: then C may hold NaN garbage, and
 * 0 * NaN would still be NaN. */
static __device__ __forceinline__ float scale_out(float alpha, float acc, float beta, const float *c)
{
    return beta == 0.0f ? alpha * acc : alpha * acc + beta * *c;
}

/* ================================================================ stage 1: naive */

/* One thread per element of C. threadIdx.x runs down a column (consecutive threads, consecutive
 * rows), so a warp's 32 loads of A are K floats apart and its 32 stores to C are N floats apart:
 * every thread touches its own cache line. Only the B loads (one address per warp) are cheap. */
static __global__ void naive_kernel(int M, int N, int K, float alpha, const float *A, const float *B, float beta,
                                    float *C)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    int col = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= M || col >= N) return; /* the edge blocks hang over C */
    const float *a = A + (size_t)row * K;
    float acc = 0.0f;
    for (int p = 0; p < K; p++) acc += a[p] * B[(size_t)p * N + col];
    size_t ij = (size_t)row * N + col;
    C[ij] = scale_out(alpha, acc, beta, C + ij);
}

extern "C" void sgemm_naive(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    dim3 block(32, 32), grid(ceil_div(M, 32), ceil_div(N, 32));
    naive_kernel<<<grid, block>>>(M, N, K, alpha, A, B, beta, C);
    CUDA_CHECK_LAST();
}

/* ================================================================ stage 2: coalesced */

/* The same arithmetic with x and y swapped: threadIdx.x now runs along a row of C, so a warp
 * reads 32 consecutive floats of B and writes 32 consecutive floats of C (one 128-byte line
 * each), and all 32 threads read the same element of A (a broadcast). */
static __global__ void coalesced_kernel(int M, int N, int K, float alpha, const float *A, const float *B, float beta,
                                        float *C)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= M || col >= N) return;
    const float *a = A + (size_t)row * K;
    float acc = 0.0f;
    for (int p = 0; p < K; p++) acc += a[p] * B[(size_t)p * N + col];
    size_t ij = (size_t)row * N + col;
    C[ij] = scale_out(alpha, acc, beta, C + ij);
}

extern "C" void sgemm_coalesced(int M, int N, int K, float alpha, const float *A, const float *B, float beta,
                                float *C)
{
    dim3 block(32, 32), grid(ceil_div(N, 32), ceil_div(M, 32));
    coalesced_kernel<<<grid, block>>>(M, N, K, alpha, A, B, beta, C);
    CUDA_CHECK_LAST();
}

/* ================================================================ stage 3: shared-memory tiles */

#define TILE 32

/* A block of 32 x 32 threads computes a 32 x 32 tile of C. Each step stages a 32 x 32 tile of A
 * and of B in shared memory (one coalesced load per thread each), and every staged value is then
 * used 32 times from shared memory instead of being fetched 32 times from L1/L2. */
static __global__ void __launch_bounds__(TILE *TILE)
    smem_tiled_kernel(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    __shared__ float As[TILE][TILE], Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TILE) {
        /* zeros past the edges of A and B add nothing, so the loop below needs no tests */
        As[ty][tx] = row < M && k0 + tx < K ? A[(size_t)row * K + k0 + tx] : 0.0f;
        Bs[ty][tx] = k0 + ty < K && col < N ? B[(size_t)(k0 + ty) * N + col] : 0.0f;
        __syncthreads(); /* the tiles are complete before anyone reads them */
        /* As[ty][p] is one address for the whole warp (broadcast); Bs[p][tx] is 32 banks */
        for (int p = 0; p < TILE; p++) acc += As[ty][p] * Bs[p][tx];
        __syncthreads(); /* everyone is done reading before the next step overwrites */
    }
    /* threads outside C still had to help load the tiles, so they leave only now */
    if (row < M && col < N) {
        size_t ij = (size_t)row * N + col;
        C[ij] = scale_out(alpha, acc, beta, C + ij);
    }
}

extern "C" void sgemm_smem_tiled(int M, int N, int K, float alpha, const float *A, const float *B, float beta,
                                 float *C)
{
    dim3 block(TILE, TILE), grid(ceil_div(N, TILE), ceil_div(M, TILE));
    smem_tiled_kernel<<<grid, block>>>(M, N, K, alpha, A, B, beta, C);
    CUDA_CHECK_LAST();
}

/* ================================================================ stage 4: 1D register tiling */

#define C1_BM 64
#define C1_BN 64
#define C1_BK 8
#define C1_TM 8                              /* rows of C per thread */
#define C1_THREADS (C1_BM * C1_BN / C1_TM) /* 512 */

/* A block computes a 64 x 64 tile of C; each thread computes 8 rows of one column. A value of B
 * loaded from shared memory into a register now feeds 8 FMAs instead of 1, so the kernel spends
 * far fewer instructions on shared-memory loads per FMA. */
static __global__ void __launch_bounds__(C1_THREADS)
    coarsened_kernel(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    __shared__ float As[C1_BM][C1_BK], Bs[C1_BK][C1_BN];
    int tid = threadIdx.x;
    int bm = blockIdx.y * C1_BM, bn = blockIdx.x * C1_BN;
    int tc = tid % C1_BN, tr = tid / C1_BN * C1_TM; /* a warp shares tr: As reads are broadcasts */
    /* each thread stages one element of each tile: 64 x 8 of A and 8 x 64 of B */
    int ar = tid / C1_BK, ac = tid % C1_BK, br = tid / C1_BN, bc = tid % C1_BN;
    float acc[C1_TM] = {};
    for (int k0 = 0; k0 < K; k0 += C1_BK) {
        As[ar][ac] = bm + ar < M && k0 + ac < K ? A[(size_t)(bm + ar) * K + k0 + ac] : 0.0f;
        Bs[br][bc] = k0 + br < K && bn + bc < N ? B[(size_t)(k0 + br) * N + bn + bc] : 0.0f;
        __syncthreads();
        for (int p = 0; p < C1_BK; p++) {
            float b = Bs[p][tc]; /* one load from shared memory, reused 8 times from a register */
#pragma unroll
            for (int i = 0; i < C1_TM; i++) acc[i] += As[tr + i][p] * b;
        }
        __syncthreads();
    }
    int col = bn + tc;
    for (int i = 0; i < C1_TM; i++) {
        int row = bm + tr + i;
        if (row < M && col < N) {
            size_t ij = (size_t)row * N + col;
            C[ij] = scale_out(alpha, acc[i], beta, C + ij);
        }
    }
}

extern "C" void sgemm_coarsened(int M, int N, int K, float alpha, const float *A, const float *B, float beta,
                                float *C)
{
    dim3 grid(ceil_div(N, C1_BN), ceil_div(M, C1_BM));
    coarsened_kernel<<<grid, C1_THREADS>>>(M, N, K, alpha, A, B, beta, C);
    CUDA_CHECK_LAST();
}

/* ================================================================ stage 5: 2D register tiling */

#define R2_BM 128
#define R2_BN 128
#define R2_BK 8
#define R2_TM 8
#define R2_TN 8
#define R2_THREADS (R2_BM * R2_BN / (R2_TM * R2_TN)) /* 256 */

/* A block computes a 128 x 128 tile of C, each of its 256 threads an 8 x 8 block of it. Per step
 * of p a thread loads 8 values of A and 8 of B into registers and does 64 FMAs with them: an
 * outer product. Per FMA that is 4 times fewer shared-memory loads than stage 4, and a staged
 * tile of A or B now serves 128 rows or columns of C, halving global traffic again. */
static __global__ void __launch_bounds__(R2_THREADS)
    register_2d_kernel(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    __shared__ float As[R2_BM][R2_BK], Bs[R2_BK][R2_BN];
    int tid = threadIdx.x;
    int bm = blockIdx.y * R2_BM, bn = blockIdx.x * R2_BN;
    int tr = tid / (R2_BN / R2_TN) * R2_TM, tc = tid % (R2_BN / R2_TN) * R2_TN; /* 16 x 16 threads */
    float acc[R2_TM][R2_TN] = {}, a[R2_TM], b[R2_TN];
    for (int k0 = 0; k0 < K; k0 += R2_BK) {
        /* 1024 elements of each tile, 4 per thread; consecutive threads take consecutive elements */
#pragma unroll
        for (int l = 0; l < R2_BM * R2_BK / R2_THREADS; l++) {
            int e = tid + l * R2_THREADS, r = e / R2_BK, c = e % R2_BK;
            As[r][c] = bm + r < M && k0 + c < K ? A[(size_t)(bm + r) * K + k0 + c] : 0.0f;
        }
#pragma unroll
        for (int l = 0; l < R2_BK * R2_BN / R2_THREADS; l++) {
            int e = tid + l * R2_THREADS, r = e / R2_BN, c = e % R2_BN;
            Bs[r][c] = k0 + r < K && bn + c < N ? B[(size_t)(k0 + r) * N + bn + c] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int p = 0; p < R2_BK; p++) {
            /* As[tr + i][p]: a column of the row-major tile, 8 words apart, so the 16 threads of a
             * half-warp that share tr broadcast; Bs[p][tc + j] is 8 words apart per thread, so a
             * warp's loads pile up in 4 banks: the conflicts that stage 6 removes */
#pragma unroll
            for (int i = 0; i < R2_TM; i++) a[i] = As[tr + i][p];
#pragma unroll
            for (int j = 0; j < R2_TN; j++) b[j] = Bs[p][tc + j];
#pragma unroll
            for (int i = 0; i < R2_TM; i++)
#pragma unroll
                for (int j = 0; j < R2_TN; j++) acc[i][j] += a[i] * b[j];
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < R2_TM; i++) {
        int row = bm + tr + i;
        if (row >= M) break; /* rows only grow with i */
#pragma unroll
        for (int j = 0; j < R2_TN; j++) {
            int col = bn + tc + j;
            if (col < N) {
                size_t ij = (size_t)row * N + col;
                C[ij] = scale_out(alpha, acc[i][j], beta, C + ij);
            }
        }
    }
}

extern "C" void sgemm_register_2d(int M, int N, int K, float alpha, const float *A, const float *B, float beta,
                                  float *C)
{
    dim3 grid(ceil_div(N, R2_BN), ceil_div(M, R2_BM));
    register_2d_kernel<<<grid, R2_THREADS>>>(M, N, K, alpha, A, B, beta, C);
    CUDA_CHECK_LAST();
}

/* ================================================================ stage 6: vectorised, padded, double-buffered */

/* The block tile is BM x BN, the k step BK; every thread computes 8 x 8 elements of C, so a
 * block has BM * BN / 64 threads. Warps tile the block in 32 x 64 pieces, lanes tile a warp as
 * 4 x 8, and a thread's 8 x 8 is four 4 x 4 quads at row offsets 0 and 16 and column offsets 0
 * and 32 of its warp's piece. Then each of a thread's shared-memory loads is one float4, the lanes
 * of a warp read 16 (A) or 32 (B) consecutive words between them, and no two lanes hit the same
 * bank at different addresses. */
#define V_PAD 4   /* floats of padding per row of the transposed A tile: see store_tiles */
#define V_GROUP 8 /* tile rows per group in the block order: see vec_block_tile */
/* 128 x 128 x 16 with 256 threads: 128 registers each (2 blocks per SM), 33 KB of shared memory
 * per block. On an H100 a k step of 16 ran about 7% faster than one of 8 (half the barriers and
 * per-tile bookkeeping per FMA). The block order (vec_block_tile) measured within about 1% of
 * plain row order at 4096 and 8192 there: it is kept as the habit, not for a measured gain. */
#define V_BM 128
#define V_BN 128
#define V_BK 16

/* The 4 floats q[0 .. 3], which are columns col .. col + 3 of a row with `cols` columns, zeros
 * past its end or when the row itself is outside the matrix (!row_ok). VEC4: cols % 4 == 0 and q
 * is 16-byte aligned, so one float4 load is legal and the 4 are all in or all out. */
template <bool VEC4>
static __device__ __forceinline__ float4 load4(const float *__restrict__ q, bool row_ok, int col, int cols)
{
    float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    if (!row_ok) return v;
    if (VEC4) {
        if (col < cols) v = *(const float4 *)q;
    } else {
        if (col < cols) v.x = q[0];
        if (col + 1 < cols) v.y = q[1];
        if (col + 2 < cols) v.z = q[2];
        if (col + 3 < cols) v.w = q[3];
    }
    return v;
}

/* Blocks start roughly in order of blockIdx.x. Handing out C's tiles down columns of GROUP tile
 * rows (instead of along whole rows) makes the blocks resident at one time share A's rows and
 * B's columns, so more of their loads hit in L2. GROUP = 1 is plain row order. */
template <int GROUP> static __device__ __forceinline__ void vec_block_tile(int tiles_m, int tiles_n, int *tm, int *tn)
{
    int per_group = GROUP * tiles_n, id = blockIdx.x;
    int first = id / per_group * GROUP, rows = min(GROUP, tiles_m - first), in = id % per_group;
    *tm = first + in % rows;
    *tn = in / rows;
}

template <int BM, int BN, int BK, int GROUP, bool VEC4>
static __global__ void __launch_bounds__(BM *BN / 64, BM *BN / 64 <= 256 ? 2 : 1)
    vectorized_kernel(int M, int N, int K, float alpha, const float *__restrict__ A, const float *__restrict__ B,
                      float beta, float *__restrict__ C)
{
    constexpr int THREADS = BM * BN / 64;
    constexpr int A4 = BM * BK / 4 / THREADS, B4 = BK * BN / 4 / THREADS; /* float4s per thread per tile */
    constexpr int LDS_A = BM + V_PAD;
    static_assert(BM % 32 == 0 && BN % 64 == 0, "whole 32 x 64 warp tiles");
    static_assert(A4 >= 1 && A4 * THREADS * 4 == BM * BK && B4 >= 1 && B4 * THREADS * 4 == BK * BN,
                  "every thread loads whole float4s of both tiles");
    /* two buffers of each tile: while the block computes on one, the next tile goes to the other */
    __shared__ __align__(16) float As[2][BK][LDS_A]; /* A's tile transposed: As[p][i] = A(bm + i, k0 + p) */
    __shared__ __align__(16) float Bs[2][BK][BN];

    int tm, tn;
    vec_block_tile<GROUP>(ceil_div(M, BM), ceil_div(N, BN), &tm, &tn);
    int bm = tm * BM, bn = tn * BN;
    int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    int tr = warp / (BN / 64) * 32 + lane / 8 * 4; /* the thread's first row and column in the tile */
    int tc = warp % (BN / 64) * 64 + lane % 8 * 4;

    /* Which float4s of the tiles this thread stages: rows a_row + i * A_STEP of A's tile at column
     * a_col, rows b_row + i * B_STEP of B's tile at column b_col. Consecutive threads take
     * consecutive float4s of a row (BK / 4 = 4 threads cover a row of A's tile, 32 threads a row
     * of B's), so a warp's loads are contiguous runs of whole 32-byte sectors. */
    constexpr int A_STEP = THREADS / (BK / 4), B_STEP = THREADS / (BN / 4);
    int a_row = tid / (BK / 4), a_col = tid % (BK / 4) * 4;
    int b_row = tid / (BN / 4), b_col = tid % (BN / 4) * 4;
    /* the sources advance by one tile per step (BK columns of A, BK rows of B): no index
     * arithmetic is redone in the loop, which keeps the kernel within 128 registers */
    const float *a_src = A + (size_t)(bm + a_row) * K + a_col;
    const float *b_src = B + (size_t)b_row * N + bn + b_col;
    float4 ra[A4], rb[B4];
    auto load_tiles = [&](int k0) {
#pragma unroll
        for (int i = 0; i < A4; i++)
            ra[i] = load4<VEC4>(a_src + (size_t)i * A_STEP * K, bm + a_row + i * A_STEP < M, k0 + a_col, K);
#pragma unroll
        for (int i = 0; i < B4; i++)
            rb[i] = load4<VEC4>(b_src + (size_t)i * B_STEP * N, k0 + b_row + i * B_STEP < K, bn + b_col, N);
        a_src += BK;
        b_src += (size_t)BK * N;
    };
    /* A goes in transposed, so that the compute loop reads 4 rows of one column as one float4.
     * The transposing stores are scalar: in one store a warp writes 8 consecutive rows of A
     * (consecutive words of a row of As) at 4 columns 4 apart (rows of As 4 apart). Unpadded,
     * those 4 rows of As would start in one bank (BM = 128 words): 4-way conflicts. V_PAD puts
     * rows 4 apart 16 banks apart, which halves that to 2-way; it costs 8 stores per tile of 16 k
     * steps. (A conflict-free variant, two threads per row of A, ran slower on an H100: 81% of
     * cuBLAS against 85% for this one.) */
    auto store_tiles = [&](int buf) {
#pragma unroll
        for (int i = 0; i < A4; i++) {
            int r = a_row + i * A_STEP;
            As[buf][a_col + 0][r] = ra[i].x;
            As[buf][a_col + 1][r] = ra[i].y;
            As[buf][a_col + 2][r] = ra[i].z;
            As[buf][a_col + 3][r] = ra[i].w;
        }
#pragma unroll
        for (int i = 0; i < B4; i++) *(float4 *)&Bs[buf][b_row + i * B_STEP][b_col] = rb[i];
    };

    float acc[8][8] = {};
    int tiles = ceil_div(K, BK);
    load_tiles(0);
    store_tiles(0);
    __syncthreads();
    for (int t = 0; t < tiles; t++) {
        int cur = t & 1;
        /* issue the next tile's global loads now; their latency hides behind the FMAs below */
        if (t + 1 < tiles) load_tiles((t + 1) * BK);
#pragma unroll
        for (int p = 0; p < BK; p++) {
            float4 a0 = *(const float4 *)&As[cur][p][tr], a1 = *(const float4 *)&As[cur][p][tr + 16];
            float4 b0 = *(const float4 *)&Bs[cur][p][tc], b1 = *(const float4 *)&Bs[cur][p][tc + 32];
            float a[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            float b[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
            /* 64 FMAs for 4 shared-memory loads */
#pragma unroll
            for (int i = 0; i < 8; i++)
#pragma unroll
                for (int j = 0; j < 8; j++) acc[i][j] += a[i] * b[j];
        }
        /* the other buffer was last read in step t - 1, which every thread has finished (the
         * barrier below, one step ago), so it can be overwritten without a second barrier */
        if (t + 1 < tiles) store_tiles(cur ^ 1);
        __syncthreads();
    }

    /* Row i of the thread's 8 x 8 is tr + i, or tr + 16 + (i - 4) for the lower quads; the two
     * column quads start at tc and tc + 32. A warp's stores cover 4 rows of 128 bytes each. */
#pragma unroll
    for (int i = 0; i < 8; i++) {
        int row = bm + tr + (i < 4 ? i : i + 12);
        if (row >= M) continue;
#pragma unroll
        for (int h = 0; h < 2; h++) {
            int col = bn + tc + 32 * h;
            float *c = C + (size_t)row * N + col;
            const float *v = &acc[i][4 * h];
            if (VEC4) {
                if (col >= N) continue; /* N % 4 == 0: the quad is all in or all out */
                float4 out = make_float4(alpha * v[0], alpha * v[1], alpha * v[2], alpha * v[3]);
                if (beta != 0.0f) {
                    float4 old = *(const float4 *)c;
                    out.x += beta * old.x, out.y += beta * old.y, out.z += beta * old.z, out.w += beta * old.w;
                }
                *(float4 *)c = out;
            } else {
#pragma unroll
                for (int j = 0; j < 4; j++)
                    if (col + j < N) c[j] = scale_out(alpha, v[j], beta, c + j);
            }
        }
    }
}

static bool aligned16(const void *p) { return (uintptr_t)p % 16 == 0; }

/* One launch of the stage-6 kernel with the given tile shape: the float4 path when every row of
 * A, B and C starts on a 16-byte boundary, the same tiling with scalar loads otherwise. */
template <int BM, int BN, int BK, int GROUP>
static void vectorized_launch(int M, int N, int K, float alpha, const float *A, const float *B, float beta,
                              float *C)
{
    int blocks = ceil_div(M, BM) * ceil_div(N, BN), threads = BM * BN / 64;
    if (K % 4 == 0 && N % 4 == 0 && aligned16(A) && aligned16(B) && aligned16(C))
        vectorized_kernel<BM, BN, BK, GROUP, true><<<blocks, threads>>>(M, N, K, alpha, A, B, beta, C);
    else
        vectorized_kernel<BM, BN, BK, GROUP, false><<<blocks, threads>>>(M, N, K, alpha, A, B, beta, C);
    CUDA_CHECK_LAST();
}

/* Fewer 128 x 128 tiles than SMs leaves SMs idle for the whole call: 1024^3 makes 64 of them, and
 * ran at 57% of cuBLAS on an H200 (132 SMs). Tiles of 64 x 128 (128 threads, three blocks an SM)
 * make twice as many blocks and ran at 98% there; from 2048^3 on, where every SM has 128 x 128
 * tiles to do, they ran at 57-87% against 85-87% for the larger tiles (scripts/studies/sgemm.cu,
 * docs/BENCHMARKS.md, "The thirty-second session"). */
extern "C" void sgemm_vectorized(int M, int N, int K, float alpha, const float *A, const float *B, float beta,
                                 float *C)
{
    static int sms;
    if (sms == 0) {
        int dev = 0;
        cudaGetDevice(&dev);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
        if (sms < 1) sms = 1;
    }
    if ((long)ceil_div(M, V_BM) * ceil_div(N, V_BN) < sms)
        vectorized_launch<V_BM / 2, V_BN, V_BK, V_GROUP>(M, N, K, alpha, A, B, beta, C);
    else
        vectorized_launch<V_BM, V_BN, V_BK, V_GROUP>(M, N, K, alpha, A, B, beta, C);
}
