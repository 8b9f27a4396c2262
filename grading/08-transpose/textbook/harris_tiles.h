/* harris_tiles.h - the shared-tile transpose of harris_tiled.cu (PAD 0) and harris_padded.cu
 * (PAD 1): the design of the kernels in Mark Harris's "An Efficient Matrix Transpose in CUDA
 * C/C++" (NVIDIA Developer Blog, 2013), in this workbook's own code (see those files). */
#include "transpose.h"
#include "textbook/empty_stage.h"

enum {
    EDGE = 32,    /* a tile is EDGE x EDGE floats */
    PASS_ROWS = 8 /* rows of threads in a block: each thread moves EDGE / PASS_ROWS elements */
};

/* out (n x m) = transpose of in (m x n), one EDGE x EDGE tile per block of EDGE x PASS_ROWS threads,
 * the shared tile's rows EDGE + PAD floats apart. */
template <int PAD>
static __global__ void tile_transpose(float *out, const float *in, int m, int n)
{
    __shared__ float buf[EDGE][EDGE + PAD]; /* PAD 1: one spare column, so a column of buf spans every bank */
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

/* The launch: one block a tile, the grid rounded up. */
template <int PAD>
static void tiles_transpose(int m, int n, const float *in, float *out)
{
    const dim3 tiles((n + EDGE - 1) / EDGE, (m + EDGE - 1) / EDGE);
    tile_transpose<PAD><<<tiles, dim3(EDGE, PASS_ROWS)>>>(out, in, m, n);
}
