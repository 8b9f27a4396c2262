/* wmma_tiles.h - what both honest lab-07 variants build their padded and pipelined stages from,
 * at the tile shapes each picks (template arguments): 16-byte copies of padded tiles (plain or
 * cp.async), the fragment products of one tile, the stores of C, and the cp.async group fences.
 * Included by wmma_256x128.cu and wmma_64x128.cu. */

/* Rows of a shared tile are 8 halves (16 bytes) longer than the data: the 8 rows a fragment
 * load reads at once then start in different bank groups. It keeps every row 16-byte aligned and
 * every 16th row 32-byte aligned, as load_matrix_sync wants. */
#define PAD 8

/* 16 bytes from global to shared memory; zeros when !in (M, N, K are multiples of 16, so a
 * chunk of 8 halves at a multiple of 8 is all inside or all outside). ASYNC: cp.async, which
 * writes zeros itself when told to copy 0 bytes (src must still be a valid address). */
template <bool ASYNC> static __device__ __forceinline__ void chunk(__half *dst, const __half *src, bool in)
{
#if __CUDA_ARCH__ >= 800
    if (ASYNC) {
        unsigned s = (unsigned)__cvta_generic_to_shared(dst);
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(s), "l"(src), "r"(in ? 16 : 0));
        return;
    }
#endif
    *(uint4 *)dst = in ? *(const uint4 *)src : make_uint4(0, 0, 0, 0);
}

/* This thread's share of copying the ROWS x COLS tile at (r0, c0) of a row-major matrix (rows x
 * cols, leading dimension ld) into a shared tile of row stride COLS + PAD. */
template <int ROWS, int COLS, int THREADS, bool ASYNC>
static __device__ __forceinline__ void copy_tile(__half *dst, const __half *g, int ld, int r0, int c0, int rows, int cols)
{
    constexpr int PER_ROW = COLS / 8;
    static_assert(ROWS * PER_ROW % THREADS == 0, "every thread copies the same number of chunks");
#pragma unroll
    for (int n = 0; n < ROWS * PER_ROW / THREADS; n++) {
        int e = threadIdx.x + n * THREADS, r = e / PER_ROW, c = e % PER_ROW * 8;
        bool in = r0 + r < rows && c0 + c < cols;
        chunk<ASYNC>(dst + r * (COLS + PAD) + c, in ? g + (size_t)(r0 + r) * ld + c0 + c : g, in);
    }
}

/* A warp's FM x FN fragments over one BK-deep tile in shared memory (strides LDA, LDB). */
template <int FM, int FN, int BK, int LDA, int LDB>
static __device__ __forceinline__ void multiply(frag_c (&acc)[FM][FN], const __half *as, const __half *bs)
{
#pragma unroll
    for (int kk = 0; kk < BK; kk += 16) {
        frag_a fa[FM];
#pragma unroll
        for (int i = 0; i < FM; i++) wmma::load_matrix_sync(fa[i], as + 16 * i * LDA + kk, LDA);
#pragma unroll
        for (int j = 0; j < FN; j++) {
            frag_b fb;
            wmma::load_matrix_sync(fb, bs + kk * LDB + 16 * j, LDB);
#pragma unroll
            for (int i = 0; i < FM; i++) wmma::mma_sync(acc[i][j], fa[i], fb, acc[i][j]);
        }
    }
}

template <int FM, int FN> static __device__ __forceinline__ void store(frag_c (&acc)[FM][FN], float *C, int M, int N, int r0, int c0)
{
#pragma unroll
    for (int i = 0; i < FM; i++)
#pragma unroll
        for (int j = 0; j < FN; j++) {
            int r = r0 + 16 * i, c = c0 + 16 * j;
            if (r < M && c < N) wmma::store_matrix_sync(C + (size_t)r * N + c, acc[i][j], N, wmma::mem_row_major);
        }
}

static __device__ __forceinline__ void commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N> static __device__ __forceinline__ void wait_groups() { asm volatile("cp.async.wait_group %0;\n" ::"n"(N)); }
