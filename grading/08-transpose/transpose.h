/* transpose.h - lab 08: the functions you write in labs/08-transpose/transpose.cu. Do not edit.
 *
 * Every function writes the transpose of `in` (m rows x n columns, row-major: element (i, j) at
 * in[i * n + j]) into `out` (n rows x m columns: element (j, i) at out[j * m + i]), for any m and n
 * from 1 up, not only multiples of a tile. Both pointers are device pointers to separate arrays
 * (the grader has put the input on the GPU); launch your kernels on the default stream and return:
 * the grader synchronises and times. */
#ifndef TRANSPOSE_H
#define TRANSPOSE_H

#ifdef __cplusplus
extern "C" {
#endif

/* Stage 1: one thread per element; a warp reads along a row of in, and so writes down a column of out. */
void transpose_naive(int m, int n, const float *in, float *out);
/* Stage 2: a 32 x 32 tile staged in shared memory, so that reads and writes are both along rows. */
void transpose_tiled(int m, int n, const float *in, float *out);
/* Stage 3: the tile padded by one column: no two threads of a warp in one bank. */
void transpose_padded(int m, int n, const float *in, float *out);
/* Stage 4: the tile unpadded, its columns permuted by an XOR of the row (a swizzle) instead. */
void transpose_swizzled(int m, int n, const float *in, float *out);
/* Stage 5: several elements a thread, with vector loads and stores where the sizes allow them. */
void transpose_vectorized(int m, int n, const float *in, float *out);

#ifdef __cplusplus
}
#endif

#endif
