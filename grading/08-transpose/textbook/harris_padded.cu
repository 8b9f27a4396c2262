/* textbook: padded
 * A transpose through a padded shared tile, following the design of the conflict-free kernel in
 * Mark Harris's "An Efficient Matrix Transpose in CUDA C/C++" (NVIDIA Developer Blog, 2013),
 * written in this workbook's own code: 32 x 32 tiles moved by blocks of 32 x 8 threads, so that
 * each thread carries four elements, rows dy = 0, 8, 16, 24 of its column; the block reads its
 * tile along rows of the input into a shared array padded to 32 x 33 floats, synchronises once,
 * and writes the tile's columns along rows of the output. With rows 33 floats apart, the 32
 * elements of a tile column fall in 32 different banks. Lab adaptations: the blog handles square
 * matrices whose side is a multiple of 32 (one width for both strides); here the input is m x n
 * (rows n long) and the output n x m (rows m long), the grid is rounded up, every load and store
 * is bounds-tested (m and n trading places for the store), and offsets are formed in size_t.
 * Graded on `padded` only: the other stages are stubs. */
#include "transpose.h"

#include <cuda_runtime.h>

enum {
    EDGE = 32,    /* a tile is EDGE x EDGE floats */
    PASS_ROWS = 8 /* rows of threads in a block: each thread moves EDGE / PASS_ROWS elements */
};

/* out (n x m) = transpose of in (m x n), one EDGE x EDGE tile per block of EDGE x PASS_ROWS threads. */
static __global__ void tile_transpose_padded(float *out, const float *in, int m, int n)
{
    __shared__ float buf[EDGE][EDGE + 1]; /* one spare column: a column of buf spans every bank */
    const int lx = threadIdx.x, ly = threadIdx.y;

    /* gather: rows of the input tile at (tile row blockIdx.y, tile column blockIdx.x) */
    const int in_c = blockIdx.x * EDGE + lx, in_r = blockIdx.y * EDGE + ly;
    for (int dy = 0; dy < EDGE; dy += PASS_ROWS) {
        const int r = in_r + dy;
        if (in_c < n && r < m) buf[ly + dy][lx] = in[(size_t)r * n + in_c];
    }

    __syncthreads();

    /* scatter: that tile lands at (tile row blockIdx.x, tile column blockIdx.y) of the output,
     * each output row taken from a column of buf */
    const int out_c = blockIdx.y * EDGE + lx, out_r = blockIdx.x * EDGE + ly;
    for (int dy = 0; dy < EDGE; dy += PASS_ROWS) {
        const int r = out_r + dy;
        if (out_c < m && r < n) out[(size_t)r * m + out_c] = buf[lx][ly + dy];
    }
}

extern "C" void transpose_naive(int m, int n, const float *in, float *out)
{
    (void)m, (void)n, (void)in, (void)out;
}

extern "C" void transpose_tiled(int m, int n, const float *in, float *out)
{
    (void)m, (void)n, (void)in, (void)out;
}

extern "C" void transpose_padded(int m, int n, const float *in, float *out)
{
    const dim3 tiles((n + EDGE - 1) / EDGE, (m + EDGE - 1) / EDGE);
    const dim3 threads(EDGE, PASS_ROWS);
    tile_transpose_padded<<<tiles, threads>>>(out, in, m, n);
}

extern "C" void transpose_swizzled(int m, int n, const float *in, float *out)
{
    (void)m, (void)n, (void)in, (void)out;
}

extern "C" void transpose_vectorized(int m, int n, const float *in, float *out)
{
    (void)m, (void)n, (void)in, (void)out;
}
