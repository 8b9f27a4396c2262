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
#include "textbook/harris_tiles.h"

extern "C" void transpose_padded(int m, int n, const float *in, float *out) { tiles_transpose<1>(m, n, in, out); }
EMPTY_STAGE(naive)
EMPTY_STAGE(tiled)
EMPTY_STAGE(swizzled)
EMPTY_STAGE(vectorized)
