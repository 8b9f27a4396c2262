/* wmma_gemm.cu - lab 07 reference: C = A B on the tensor cores, four ways: through WMMA (stages
 * 1-3), then through the instructions WMMA compiles to, ldmatrix and mma.sync (stage 4).
 *
 * A is M x K half (lda = K), B is K x N half (ldb = N), C is M x N float (ldc = N), all
 * row-major device pointers from cudaMalloc. A product of two halves is exact in float, and the
 * tensor cores sum in float. M, N and K are multiples of 16, so a 16 x 16 fragment of C, or a
 * 16-deep slice of K, lies wholly inside or wholly outside the matrices: bounds are checked per
 * fragment and per 16-byte chunk, never per element. Every kernel is static and runs on the
 * default stream; the grader synchronises and times, and checks for a CUDA error after every
 * call (a submission can include only system headers and its lab's, so no checking macro here). */
#include "wmma_gemm.h"

#include <cuda_runtime.h>
#include <mma.h>

using namespace nvcuda;

/* One WMMA operation: a 16 x 16 x 16 product, A and B row-major as they lie in memory. */
#define FRAG 16
typedef wmma::fragment<wmma::matrix_a, FRAG, FRAG, FRAG, __half, wmma::row_major> frag_a;
typedef wmma::fragment<wmma::matrix_b, FRAG, FRAG, FRAG, __half, wmma::row_major> frag_b;
typedef wmma::fragment<wmma::accumulator, FRAG, FRAG, FRAG, float> frag_c;

static __host__ __device__ int cdiv(int a, int b) { return (a + b - 1) / b; }

/* Store a warp's FM x FN fragments, whose top-left is C[row][col], skipping those past M or N
 * (a partial block tile). Fragment (i, j) covers rows row + 16 i .. + 16, columns col + 16 j. */
template <int FM, int FN>
static __device__ __forceinline__ void store_frags(frag_c (&acc)[FM][FN], float *C, int M, int N, int row, int col)
{
#pragma unroll
    for (int i = 0; i < FM; i++)
#pragma unroll
        for (int j = 0; j < FN; j++) {
            int r = row + i * FRAG, c = col + j * FRAG;
            if (r < M && c < N) wmma::store_matrix_sync(C + (size_t)r * N + c, acc[i][j], N, wmma::mem_row_major);
        }
}

/* ================================================================ stage 1: one warp per 16 x 16 tile */

/* A block of 2 x 2 warps covers 32 x 32 of C, so that neighbouring warps read the same rows of
 * A and columns of B, and the second reader finds them in L1. */
#define WT_WARPS_M 2
#define WT_WARPS_N 2

/* Each warp sums its tile over K from fragments loaded straight from global memory: every
 * element of A is read N / 16 times and of B M / 16 times, with only the caches to help. */
static __global__ void warp_tile_kernel(int M, int N, int K, const __half *A, const __half *B, float *C)
{
    int warp = threadIdx.x / 32;
    int tm = blockIdx.y * WT_WARPS_M + warp / WT_WARPS_N, tn = blockIdx.x * WT_WARPS_N + warp % WT_WARPS_N;
    /* the whole warp leaves together: the *_sync calls below need all 32 lanes */
    if (tm * FRAG >= M || tn * FRAG >= N) return;
    const __half *a = A + (size_t)tm * FRAG * K; /* A[16 tm][0]: 16 rows, ldm = K */
    const __half *b = B + (size_t)tn * FRAG;     /* B[0][16 tn]: 16 columns, ldm = N */
    frag_a fa;
    frag_b fb;
    frag_c acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k = 0; k < K; k += FRAG) {
        wmma::load_matrix_sync(fa, a + k, K);
        wmma::load_matrix_sync(fb, b + (size_t)k * N, N);
        wmma::mma_sync(acc, fa, fb, acc);
    }
    wmma::store_matrix_sync(C + (size_t)tm * FRAG * N + tn * FRAG, acc, N, wmma::mem_row_major);
}

extern "C" void wmma_warp_tile(int M, int N, int K, const lab_half *A, const lab_half *B, float *C)
{
    dim3 grid(cdiv(N, WT_WARPS_N * FRAG), cdiv(M, WT_WARPS_M * FRAG));
    warp_tile_kernel<<<grid, WT_WARPS_M * WT_WARPS_N * 32>>>(M, N, K, A, B, C);
}

/* ================================================================ stage 2: shared-memory block tiles */

/* A 128 x 128 tile of C per block, K in steps of 32; 16 warps as 4 x 4, each owning 32 x 32
 * (2 x 2 fragments). Each element staged in shared memory is now read by 4 warps, not from
 * global memory 4 times. */
#define BT_BM 128
#define BT_BN 128
#define BT_BK 32
#define BT_WARPS_N 4
#define BT_THREADS 512

static __global__ void __launch_bounds__(BT_THREADS)
    block_tile_kernel(int M, int N, int K, const __half *A, const __half *B, float *C)
{
    /* 32-byte alignment: load_matrix_sync wants 256-bit aligned pointers */
    __shared__ __align__(32) __half As[BT_BM][BT_BK];
    __shared__ __align__(32) __half Bs[BT_BK][BT_BN];
    int tid = threadIdx.x, warp = tid / 32;
    int row0 = blockIdx.y * BT_BM, col0 = blockIdx.x * BT_BN;
    int wm = warp / BT_WARPS_N * 32, wn = warp % BT_WARPS_N * 32; /* the warp's piece in the tile */
    const __half zero = __float2half(0.0f);
    frag_c acc[2][2];
#pragma unroll
    for (int i = 0; i < 2; i++)
#pragma unroll
        for (int j = 0; j < 2; j++) wmma::fill_fragment(acc[i][j], 0.0f);

    for (int k0 = 0; k0 < K; k0 += BT_BK) {
        /* Consecutive threads copy consecutive halves of a row (coalesced). Past M, N or K we
         * store zeros, which add nothing to the sums, so the loop below needs no bounds. */
        for (int i = tid; i < BT_BM * BT_BK; i += BT_THREADS) {
            int r = i / BT_BK, c = i % BT_BK;
            As[r][c] = row0 + r < M && k0 + c < K ? A[(size_t)(row0 + r) * K + k0 + c] : zero;
        }
        for (int i = tid; i < BT_BK * BT_BN; i += BT_THREADS) {
            int r = i / BT_BN, c = i % BT_BN;
            Bs[r][c] = k0 + r < K && col0 + c < N ? B[(size_t)(k0 + r) * N + col0 + c] : zero;
        }
        __syncthreads(); /* the tiles are whole before any warp reads them */
#pragma unroll
        for (int kk = 0; kk < BT_BK; kk += FRAG) {
            frag_a fa[2];
            frag_b fb[2];
#pragma unroll
            for (int i = 0; i < 2; i++) wmma::load_matrix_sync(fa[i], &As[wm + i * FRAG][kk], BT_BK);
#pragma unroll
            for (int j = 0; j < 2; j++) wmma::load_matrix_sync(fb[j], &Bs[kk][wn + j * FRAG], BT_BN);
#pragma unroll
            for (int i = 0; i < 2; i++)
#pragma unroll
                for (int j = 0; j < 2; j++) wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
        }
        __syncthreads(); /* every warp is done with the tiles before the next copy overwrites them */
    }
    store_frags(acc, C, M, N, row0 + wm, col0 + wn);
}

extern "C" void wmma_block_tile(int M, int N, int K, const lab_half *A, const lab_half *B, float *C)
{
    dim3 grid(cdiv(N, BT_BN), cdiv(M, BT_BM));
    block_tile_kernel<<<grid, BT_THREADS>>>(M, N, K, A, B, C);
}

/* ================================================================ 16-byte tile copies (stages 3 and 4) */

/* Stage 3: each shared row gets 8 extra halves (16 bytes). A fragment load (ldmatrix) reads 8 rows of 16
 * bytes at once; with rows of 64 or 256 bytes those rows start in the same banks and the reads
 * serialise, while with rows of 80, 144 or 272 bytes the 8 reads land on 8 different 16-byte bank
 * groups. 8 halves also keeps every row 16-byte aligned (for 16-byte copies) and every fragment,
 * 16 rows down, 32-byte aligned (as load_matrix_sync asks). */
#define PAD 8

/* Copy 16 bytes (8 halves) from global to shared memory, or store 16 zero bytes when `in` is
 * false. ASYNC on sm_80 and later uses cp.async, which skips the registers and lets the thread
 * go on at once: the data lands later, after cp.async.wait_group (below). The .cg form caches
 * in L2 only: each block reads a chunk once. A src-size of 0 makes the hardware write zeros. */
template <bool ASYNC>
static __device__ __forceinline__ void copy16(__half *dst, const __half *src, bool in)
{
#if __CUDA_ARCH__ >= 800
    if (ASYNC) {
        unsigned s = (unsigned)__cvta_generic_to_shared(dst);
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(s), "l"(src), "r"(in ? 16 : 0));
        return;
    }
#endif
    /* the synchronous path: stages 1-3, and stage 4 before sm_80 (no cp.async there) */
    *(uint4 *)dst = in ? *(const uint4 *)src : make_uint4(0, 0, 0, 0);
}

/* Groups of cp.async copies: commit closes the group issued since the last commit; wait<N>
 * blocks until at most N groups are still in flight. No-ops where the copies are synchronous. */
static __device__ __forceinline__ void copy_commit()
{
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;\n" ::);
#endif
}

template <int N> static __device__ __forceinline__ void copy_wait()
{
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
#endif
}

/* Stage 4's alternative to padding, a swizzle: rows are stored unpadded, but the 16-byte chunk c
 * of row r goes to chunk c ^ (r mod 8) of that row. Row r's chunks are only permuted among
 * themselves (in groups of 8: rows must hold a multiple of 8 chunks, 128 bytes), and the 8 rows
 * an ldmatrix reads at one logical chunk land on 8 different chunk positions, so 8 different
 * 16-byte bank groups: no conflicts, and no memory spent on padding. */
static __device__ __forceinline__ int swizzle(int row, int chunk) { return chunk ^ (row & 7); }

/* One thread's share of copying ROWS x COLS tiles of a row-major matrix (leading dimension ld)
 * to shared memory (row stride SLD halves, chunks swizzled if SWIZZLE), 16 bytes at a time.
 * Each thread keeps one column and steps down the rows by STEP, so its addresses are worked out
 * once, in the constructor: the copy of each later tile costs a few adds. Consecutive threads
 * take consecutive 16-byte chunks of a row, so a warp reads whole 128-byte lines. */
template <int ROWS, int COLS, int SLD, int THREADS, bool SWIZZLE = false> struct tile_copy {
    static constexpr int PER_ROW = COLS / 8, STEP = THREADS / PER_ROW, COPIES = ROWS / STEP;
    static_assert(THREADS % PER_ROW == 0 && ROWS % STEP == 0, "every thread copies the same number of chunks");
    /* a swizzled row is a whole number of 8-chunk groups; and a thread's rows, STEP apart, all
     * have the same r mod 8, so its swizzled column is the same in each */
    static_assert(!SWIZZLE || (SLD == COLS && PER_ROW % 8 == 0 && STEP % 8 == 0), "swizzle: 128-byte rows, STEP % 8 == 0");
    const __half *g; /* this thread's first chunk in the first tile */
    size_t g_step;   /* STEP rows of the matrix, in halves */
    int row, col, s; /* its first row and column in the tile; its offset in shared memory */

    __device__ tile_copy(const __half *tile, int ld)
    {
        row = threadIdx.x / PER_ROW, col = threadIdx.x % PER_ROW * 8;
        g = tile + (size_t)row * ld + col, g_step = (size_t)STEP * ld;
        s = row * SLD + (SWIZZLE ? swizzle(row, col / 8) * 8 : col);
    }

    /* Copy the tile `advance` halves on from the first one into dst. Only `rows` x `cols` of it
     * lie inside the matrix (both multiples of 8): chunks past them become zeros, and name g,
     * a valid address, as their source, so no thread forms a pointer past the end. */
    template <bool ASYNC> __device__ __forceinline__ void copy(__half *dst, size_t advance, int rows, int cols) const
    {
        const __half *src = g + advance;
#pragma unroll
        for (int n = 0; n < COPIES; n++) {
            bool in = row + n * STEP < rows && col < cols;
            copy16<ASYNC>(dst + s + n * STEP * SLD, in ? src + n * g_step : g, in);
        }
    }
};

/* ================================================================ stage 3: padded tiles, 16-byte loads */

/* Still 128 x 128 x 32 tiles, but 8 warps as 2 x 4, each owning 64 x 32 (4 x 2 fragments): per
 * 16-deep step a warp loads 6 fragments for 8 products, where stage 2 loaded 4 for 4. */
#define PD_BM 128
#define PD_BN 128
#define PD_BK 32
#define PD_WM 64
#define PD_WN 32
#define PD_THREADS 256
#define PD_LDA (PD_BK + PAD) /* shared row strides, in halves */
#define PD_LDB (PD_BN + PAD)

static __global__ void __launch_bounds__(PD_THREADS)
    padded_kernel(int M, int N, int K, const __half *A, const __half *B, float *C)
{
    __shared__ __align__(128) __half As[PD_BM * PD_LDA];
    __shared__ __align__(128) __half Bs[PD_BK * PD_LDB];
    constexpr int FM = PD_WM / FRAG, FN = PD_WN / FRAG, WARPS_N = PD_BN / PD_WN;
    int warp = threadIdx.x / 32;
    int row0 = blockIdx.y * PD_BM, col0 = blockIdx.x * PD_BN;
    int wm = warp / WARPS_N * PD_WM, wn = warp % WARPS_N * PD_WN;
    frag_c acc[FM][FN];
#pragma unroll
    for (int i = 0; i < FM; i++)
#pragma unroll
        for (int j = 0; j < FN; j++) wmma::fill_fragment(acc[i][j], 0.0f);

    tile_copy<PD_BM, PD_BK, PD_LDA, PD_THREADS> copy_a(A + (size_t)row0 * K, K); /* A tiles step right */
    tile_copy<PD_BK, PD_BN, PD_LDB, PD_THREADS> copy_b(B + col0, N);            /* B tiles step down */
    for (int k0 = 0; k0 < K; k0 += PD_BK) {
        /* one uint4 is 8 halves: 2 loads a thread for each tile instead of 8 */
        copy_a.copy<false>(As, k0, M - row0, K - k0);
        copy_b.copy<false>(Bs, (size_t)k0 * N, K - k0, N - col0);
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < PD_BK; kk += FRAG) {
            frag_a fa[FM];
#pragma unroll
            for (int i = 0; i < FM; i++) wmma::load_matrix_sync(fa[i], As + (wm + i * FRAG) * PD_LDA + kk, PD_LDA);
            /* one B fragment at a time, used against all FM A fragments: fewer live registers */
#pragma unroll
            for (int j = 0; j < FN; j++) {
                frag_b fb;
                wmma::load_matrix_sync(fb, Bs + kk * PD_LDB + wn + j * FRAG, PD_LDB);
#pragma unroll
                for (int i = 0; i < FM; i++) wmma::mma_sync(acc[i][j], fa[i], fb, acc[i][j]);
            }
        }
        __syncthreads(); /* done reading before the next copy overwrites */
    }
    store_frags(acc, C, M, N, row0 + wm, col0 + wn);
}

extern "C" void wmma_padded(int M, int N, int K, const lab_half *A, const lab_half *B, float *C)
{
    dim3 grid(cdiv(N, PD_BN), cdiv(M, PD_BM));
    padded_kernel<<<grid, PD_THREADS>>>(M, N, K, A, B, C);
}

/* ================================================================ stage 4: a cp.async pipeline, ldmatrix and mma.sync */

/* Stages 1-3 leave the fragments to WMMA, which decides when each ldmatrix runs and keeps no
 * fragment of the next 16-deep step in registers while this step's products run. Stage 4 writes
 * the instructions WMMA compiles to, in inline PTX, so that it can:
 *   - load the fragments of step kk + 1 into a second set of registers while the products of
 *     step kk run (register double buffering): the tensor cores never wait on an ldmatrix;
 *   - load the first step of the next K-tile before the products of this tile's last step, so
 *     that even the barrier between K-tiles is covered by queued products;
 *   - lay the tiles out swizzled (above) instead of padded.
 *
 * The instruction is mma.sync.m16n8k16: D (16 x 8, float) += A (16 x 16, half, row-major) times
 * B (16 x 8, half, "col": k runs along each lane's register pair). Lane l holds, with
 * g = l / 4 and t = l % 4 (the PTX ISA's "Matrix Fragments for mma.m16n8k16"):
 *   A: 4 registers of 2 halves, a0 = A[g][2t..2t+1], a1 = A[g+8][2t..], a2 = A[g][2t+8..], a3 = A[g+8][2t+8..]
 *   B: 2 registers, b0 = B[2t..2t+1][g], b1 = B[2t+8..2t+9][g]
 *   D: 4 floats, d0, d1 = D[g][2t], D[g][2t+1]; d2, d3 = D[g+8][2t], D[g+8][2t+1]
 * ldmatrix .x4 reads four 8 x 8 matrices of halves, each as 8 rows of 16 bytes whose addresses
 * lanes 8q .. 8q + 7 give, and returns matrix q in register q, row l / 4, halves 2 (l % 4) and
 * 2 (l % 4) + 1: exactly the A layout when the 4 matrices are A's quarters in the order a0..a3.
 * With .trans each lane instead gets column l / 4, rows 2 (l % 4) and 2 (l % 4) + 1, which from
 * a row-major B (k down, n along the rows) is exactly b0 or b1.
 *
 * On Hopper, cuBLAS uses wgmma (warpgroup MMA, sm_90a, operands straight from shared memory),
 * which this lab forbids; mma.sync (HMMA in the SASS) tops out near 650 TFLOP/s on an H100,
 * about 81% of cuBLAS: this kernel cannot reach cuBLAS there, by design. */

/* ldmatrix before sm_75 and mma.sync of this shape before sm_80 do not exist: the kernel is
 * launched only from 7.5 on (wmma_pipelined), and on 7.5 the product is two m16n8k8 halves.
 * Addresses are 32-bit shared-window addresses (__cvta_generic_to_shared), in bytes. `volatile`
 * keeps every shared-memory read on its side of the barriers. */
static __device__ __forceinline__ void ldsm_x4(unsigned (&r)[4], unsigned addr)
{
#if __CUDA_ARCH__ >= 750
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(addr));
#endif
}

static __device__ __forceinline__ void ldsm_x4_trans(unsigned (&r)[4], unsigned addr)
{
#if __CUDA_ARCH__ >= 750
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(addr));
#endif
}

/* d += a b for one 16 x 8 x 16 product. */
static __device__ __forceinline__ void mma_16816(float (&d)[4], const unsigned (&a)[4], const unsigned (&b)[2])
{
#if __CUDA_ARCH__ >= 800
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
                 "{%0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#elif __CUDA_ARCH__ >= 750
    /* k = 0..7 is (a0, a1; b0), k = 8..15 is (a2, a3; b1) */
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]));
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[2]), "r"(a[3]), "r"(b[1]));
#endif
}

/* BM x BN block tiles, K in steps of BK, warps of WM x WN, and STAGES tiles of A and B in
 * shared memory at once: while the warps multiply tile k, the copies of tiles k + 1 ..
 * k + STAGES - 1 are in flight, so the tensor cores rarely wait for memory. Each warp owns
 * MT x NT products of 16 x 8 (MT = WM / 16, NT = WN / 8), all its accumulators in registers. */
template <int BM, int BN, int BK, int WM, int WN, int STAGES> struct pipe {
    static constexpr int WARPS_N = BN / WN, THREADS = BM / WM * WARPS_N * 32;
    static constexpr int MT = WM / 16, NT = WN / 8, KSTEPS = BK / 16;
    static constexpr int A_HALVES = BM * BK, B_HALVES = BK * BN; /* one stage, unpadded */
    static constexpr int SMEM = STAGES * (A_HALVES + B_HALVES) * (int)sizeof(__half);
    static_assert(BK % 64 == 0 && BN % 64 == 0, "swizzled rows hold a multiple of 8 chunks (64 halves)");
    static_assert(WM % 16 == 0 && WN % 16 == 0 && BM % WM == 0 && BN % WN == 0, "whole ldmatrix.x4 per warp tile");
    static_assert(KSTEPS >= 2, "the pipeline below loads the next tile's fragments at the last step");
};

/* One block per tile of C. The 1-D grid goes down GROUP tile-rows before moving one tile-column
 * right, so the ~132 blocks running at once share a few panels of A and B in L2 instead of
 * all of B: fewer bytes from device memory. */
template <int BM, int BN, int BK, int WM, int WN, int STAGES>
static __global__ void __launch_bounds__(pipe<BM, BN, BK, WM, WN, STAGES>::THREADS, 1)
    pipelined_kernel(int M, int N, int K, const __half *A, const __half *B, float *C, int group)
{
    typedef pipe<BM, BN, BK, WM, WN, STAGES> P;
    constexpr int MT = P::MT, NT = P::NT, KSTEPS = P::KSTEPS;
    extern __shared__ __align__(128) unsigned char smem[];
    __half *sa = (__half *)smem, *sb = sa + STAGES * P::A_HALVES; /* STAGES A tiles, then STAGES B */

    int tiles_m = cdiv(M, BM), tiles_n = cdiv(N, BN);
    int per_group = group * tiles_n, first = blockIdx.x / per_group * group;
    int rows = min(tiles_m - first, group), id = blockIdx.x % per_group;
    int row0 = (first + id % rows) * BM, col0 = id / rows * BN;

    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int wm = warp / P::WARPS_N * WM, wn = warp % P::WARPS_N * WN;

    /* Where this lane's ldmatrix rows are. For A (matrices a0..a3: rows 0-7 and 8-15 of the
     * step's first 8 halves, then of the next 8) lane l names row l % 16 of a 16-row slice,
     * chunk l / 16 of the step; for
     * B (.trans; b0, b1 of one 8-column product, then of the next) k-row l % 16, chunk l / 16 of
     * a 16-column pair. Every such row r has r mod 8 = l mod 8 (slices start at multiples of 16),
     * so the swizzled chunk of logical chunk 2 c + l / 16 is (2 c) ^ x, x = (l / 16) ^ (l % 8):
     * one XOR per load. */
    int x = (lane / 16) ^ (lane % 8);
    unsigned a_lane = (unsigned)__cvta_generic_to_shared(sa) + (wm + lane % 16) * BK * 2;
    unsigned b_lane = (unsigned)__cvta_generic_to_shared(sb) + lane % 16 * BN * 2;

    /* Fragments of step kk of the tile in stage `stage`, into one of the two register sets. */
    auto load_frags = [&](unsigned (&a)[MT][4], unsigned (&b)[NT][2], int stage, int kk) {
        unsigned as = a_lane + stage * P::A_HALVES * 2, bs = b_lane + (stage * P::B_HALVES + kk * 16 * BN) * 2;
#pragma unroll
        for (int i = 0; i < MT; i++) ldsm_x4(a[i], as + (i * 16 * BK + ((2 * kk) ^ x) * 8) * 2);
#pragma unroll
        for (int j = 0; j < NT; j += 2) {
            unsigned r[4];
            ldsm_x4_trans(r, bs + (((wn / 8 + j) ^ x) * 8) * 2);
            b[j][0] = r[0], b[j][1] = r[1], b[j + 1][0] = r[2], b[j + 1][1] = r[3];
        }
    };

    float acc[MT][NT][4];
#pragma unroll
    for (int i = 0; i < MT; i++)
#pragma unroll
        for (int j = 0; j < NT; j++)
#pragma unroll
            for (int e = 0; e < 4; e++) acc[i][j][e] = 0.0f;
    unsigned fa[2][MT][4], fb[2][NT][2]; /* two register sets: step kk uses set kk % 2 */

    /* Start the copies of K-tile kt into buffer `stage` (no waiting here). */
    tile_copy<BM, BK, BK, P::THREADS, true> copy_a(A + (size_t)row0 * K, K);
    tile_copy<BK, BN, BN, P::THREADS, true> copy_b(B + col0, N);
    auto load = [&](int stage, int kt) {
        int k0 = kt * BK;
        copy_a.template copy<true>(sa + stage * P::A_HALVES, k0, M - row0, K - k0);
        copy_b.template copy<true>(sb + stage * P::B_HALVES, (size_t)k0 * N, K - k0, N - col0);
    };

    /* Prologue: the first STAGES - 1 tiles in flight, one commit group each. A group is
     * committed even when empty, so that "group kt" always means K-tile kt. Then wait for tile
     * 0 (everyone's copies: the barrier) and load its first step's fragments. */
    int ktiles = cdiv(K, BK);
#pragma unroll
    for (int s = 0; s < STAGES - 1; s++) {
        if (s < ktiles) load(s, s);
        copy_commit();
    }
    copy_wait<STAGES - 2>();
    __syncthreads();
    load_frags(fa[0], fb[0], 0, 0);

    int stage = 0; /* = kt % STAGES */
    for (int kt = 0; kt < ktiles; kt++) {
        int next_stage = stage + 1 == STAGES ? 0 : stage + 1;
#pragma unroll
        for (int kk = 0; kk < KSTEPS; kk++) {
            /* First the next step's fragments, into the other register set, so that their
             * loads run under this step's products. */
            if (kk + 1 < KSTEPS) {
                load_frags(fa[(kk + 1) % 2], fb[(kk + 1) % 2], stage, kk + 1);
            } else if (kt + 1 < ktiles) {
                /* The next step is step 0 of tile kt + 1. Groups 0 .. kt + STAGES - 1 have been
                 * committed, so waiting for all but STAGES - 2 means tile kt + 1 has landed, for
                 * this thread's copies; the barrier makes everyone's visible. It also says that
                 * every warp is past its last fragment load from tile kt - 1 (at step KSTEPS - 2
                 * of iteration kt - 1), whose buffer the copies issued below, at step 0 of
                 * iteration kt + 1, will refill. One barrier per K-tile, and the products of
                 * this last step, still to be issued, cover it. */
                copy_wait<STAGES - 2>();
                __syncthreads();
                load_frags(fa[(kk + 1) % 2], fb[(kk + 1) % 2], next_stage, 0);
            }
            /* MT x NT products from MT + NT / 2 ldmatrix: every fragment is used MT or NT times */
            const int set = kk % 2;
#pragma unroll
            for (int i = 0; i < MT; i++)
#pragma unroll
                for (int j = 0; j < NT; j++) mma_16816(acc[i][j], fa[set][i], fb[set][j]);
            /* Start the copies of tile kt + STAGES - 1, into the buffer of tile kt - 1, once the
             * first step's products are queued: their address arithmetic then runs beside the
             * tensor cores, not in front of them. */
            if (kk == 0) {
                int next = kt + STAGES - 1;
                if (next < ktiles) load(stage == 0 ? STAGES - 1 : stage - 1, next);
                copy_commit();
            }
        }
        stage = next_stage;
    }

    /* No copy is left pending: every group after the last tile was empty. The accumulators go
     * straight to global memory: per 16 x 8 product, lane (g, t) holds D[g][2t..2t+1] and
     * D[g+8][2t..2t+1], one 8-byte store each; a warp's store fills 8 rows of 32 bytes. M and N
     * are multiples of 16, so a product lies wholly inside C or wholly outside it. */
    int g = lane / 4, t = lane % 4;
#pragma unroll
    for (int i = 0; i < MT; i++) {
        int r = row0 + wm + i * 16 + g;
        if (r >= M) continue;
#pragma unroll
        for (int j = 0; j < NT; j++) {
            int c = col0 + wn + j * 8 + 2 * t;
            if (c >= N) continue;
            *(float2 *)(C + (size_t)r * N + c) = make_float2(acc[i][j][0], acc[i][j][1]);
            *(float2 *)(C + (size_t)(r + 8) * N + c) = make_float2(acc[i][j][2], acc[i][j][3]);
        }
    }
}

/* Launch one configuration: raise the block's dynamic shared-memory limit (over 48 KB needs
 * the opt-in), then one block per tile of C. */
template <int BM, int BN, int BK, int WM, int WN, int STAGES>
static void launch_pipelined(int M, int N, int K, const __half *A, const __half *B, float *C, int group)
{
    typedef pipe<BM, BN, BK, WM, WN, STAGES> P;
    auto kernel = pipelined_kernel<BM, BN, BK, WM, WN, STAGES>;
    cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, P::SMEM);
    kernel<<<cdiv(M, BM) * cdiv(N, BN), P::THREADS, P::SMEM>>>(M, N, K, A, B, C, group);
}

/* 128 x 256 tiles of 8 warps of 64 x 64 (4 x 8 products of 16 x 8: 128 accumulator registers a
 * thread, and 2 x 32 more for the two fragment sets). On an H100 (227 KB a block) two stages of
 * 128-deep K-tiles, 192 KB: one barrier per 8 steps of 16, and one tile copying while the other
 * is multiplied. At 8192^3 this ran 2% faster than 3 or 4 stages of 64-deep tiles, where the
 * barriers come twice as often. An A100 (163 KB) gets 3 stages of 64-deep tiles, 144 KB; a
 * Turing GPU (64 KB) 128 x 128 tiles of 4 warps, 2 stages of 64, 64 KB. Before sm_75 there is
 * no ldmatrix: Volta gets stage 3. */
extern "C" void wmma_pipelined(int M, int N, int K, const lab_half *A, const lab_half *B, float *C)
{
    int device = 0, major = 0, minor = 0, optin = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
    cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device);
    cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
    if (major * 10 + minor < 75)
        wmma_padded(M, N, K, A, B, C);
    else if (optin >= pipe<128, 256, 128, 64, 64, 2>::SMEM)
        launch_pipelined<128, 256, 128, 64, 64, 2>(M, N, K, A, B, C, 16);
    else if (optin >= pipe<128, 256, 64, 64, 64, 3>::SMEM)
        launch_pipelined<128, 256, 64, 64, 64, 3>(M, N, K, A, B, C, 16);
    else
        launch_pipelined<128, 128, 64, 64, 64, 2>(M, N, K, A, B, C, 16);
}
