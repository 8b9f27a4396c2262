/* conv.h - lab 11: the functions you write in labs/11-convolution/conv.cu. Do not edit.
 *
 * Every function writes the 2D convolution of the image `in` (m rows x n columns, row-major:
 * pixel (i, j) at in[i * n + j]) with the K x K filter `filter` (row-major: tap (a, b) at
 * filter[a * K + b]) into `out` (m x n, like in), with zero padding and r = K / 2:
 *
 *     out[i][j] = sum over a, b in [0, K) of filter[a][b] * in[i + a - r][j + b - r]
 *
 * where a pixel outside the image counts as 0. This is cross-correlation, the convention of
 * machine-learning libraries: the filter is not flipped. K is odd, from 3 to 15; m and n are any
 * sizes from 1 up (a 1 x 1 image with a 15 x 15 filter too). All three pointers are device
 * pointers to separate arrays; launch your kernels on the default stream and return: the grader
 * synchronises and times. */
#ifndef CONV_H
#define CONV_H

#ifdef __cplusplus
extern "C" {
#endif

/* The largest filter side the grader uses: a filter has at most CONV_MAX_K * CONV_MAX_K taps. */
#define CONV_MAX_K 15

/* Stage 1: one thread per output, the filter read from global memory. */
void conv_naive(int m, int n, int K, const float *in, const float *filter, float *out);
/* Stage 2: the filter in __constant__ memory (copied there with cudaMemcpyToSymbol), where every
 * thread of a warp reads the same tap at once. */
void conv_constant(int m, int n, int K, const float *in, const float *filter, float *out);
/* Stage 3: each block's input tile, with its halo of r pixels on every side, staged in shared
 * memory, zeros where it lies outside the image. */
void conv_tiled(int m, int n, int K, const float *in, const float *filter, float *out);
/* Stage 4: thread coarsening: each thread computes several outputs along a row, keeping the
 * input pixels they share in registers. */
void conv_coarsened(int m, int n, int K, const float *in, const float *filter, float *out);

#ifdef __cplusplus
}
#endif

#endif
