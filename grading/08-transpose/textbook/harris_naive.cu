/* textbook: naive
 * A transpose straight from global memory to global memory, following the design of the naive
 * kernel in Mark Harris's "An Efficient Matrix Transpose in CUDA C/C++" (NVIDIA Developer Blog,
 * 2013), written in this workbook's own code: the matrix cut into 32 x 32 tiles, a block of
 * 32 x 8 threads a tile, each thread moving four elements, rows dy = 0, 8, 16, 24 of its column of
 * the tile, one load and one store at a time in that order. A warp reads 32 consecutive floats of
 * a row of the input (coalesced) and writes them down a column of the output, 32 stores a row
 * apart (strided). No shared memory, no __restrict__, no vector accesses: the blog's plain form.
 * Lab adaptations: the blog handles square matrices whose side is a multiple of 32, and takes the
 * one width from gridDim; here the input is m x n (rows n long) and the output n x m (rows m
 * long), both sizes are passed to the kernel, the grid is rounded up, every element is
 * bounds-tested before it moves, and offsets are formed in size_t. The tile and block shape
 * (EDGE, PASS_ROWS) are those of harris_tiles.h, shared with harris_tiled.cu and harris_padded.cu.
 * Graded on `naive` only: the other stages are stubs. */
#include "transpose.h"
#include "textbook/harris_tiles.h"

/* out (n x m) = transpose of in (m x n): thread (lx, ly) of block (bx, by) moves in[r][c] to
 * out[c][r] for c = bx * EDGE + lx and r = by * EDGE + ly + dy, dy = 0, PASS_ROWS, ... < EDGE. */
static __global__ void direct_transpose(float *out, const float *in, int m, int n)
{
    const int c = blockIdx.x * EDGE + threadIdx.x; /* this thread's column of in, row of out */
    const int r0 = blockIdx.y * EDGE + threadIdx.y; /* its first row of in, column of out */
    for (int dy = 0; dy < EDGE; dy += PASS_ROWS) {
        const int r = r0 + dy;
        if (c < n && r < m) out[(size_t)c * m + r] = in[(size_t)r * n + c];
    }
}

extern "C" void transpose_naive(int m, int n, const float *in, float *out)
{
    const dim3 tiles((n + EDGE - 1) / EDGE, (m + EDGE - 1) / EDGE);
    direct_transpose<<<tiles, dim3(EDGE, PASS_ROWS)>>>(out, in, m, n);
}
EMPTY_STAGE(tiled)
EMPTY_STAGE(padded)
EMPTY_STAGE(swizzled)
EMPTY_STAGE(vectorized)
