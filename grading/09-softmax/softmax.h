/* softmax.h - lab 09: the functions you write in labs/09-softmax/softmax.cu. Do not edit.
 *
 * Every function writes the softmax of each row of `in` (m rows x n columns, row-major: element
 * (i, j) at in[i * n + j]) into the same place in `out`:
 *
 *     out[i][j] = exp(in[i][j] - M_i) / sum_k exp(in[i][k] - M_i),   M_i = max_k in[i][k]
 *
 * for any m and n from 1 up. Subtracting the row's maximum changes nothing in exact arithmetic and
 * keeps every exp at most 1: the inputs go up to 90, and expf overflows above 88.7. Both pointers
 * are device pointers to separate arrays; launch your kernels on the default stream and return:
 * the grader synchronises and times. */
#ifndef SOFTMAX_H
#define SOFTMAX_H

#ifdef __cplusplus
extern "C" {
#endif

/* Stage 1: a block per row, three passes over it: the maximum, the sum of exps, the outputs. */
void softmax_three_pass(int m, int n, const float *in, float *out);
/* Stage 2: a warp per row, its reductions with warp shuffles. */
void softmax_warp(int m, int n, const float *in, float *out);
/* Stage 3: online softmax: the maximum and the sum in one read (the sum rescaled whenever the
 * maximum grows), then the outputs. */
void softmax_online(int m, int n, const float *in, float *out);
/* Stage 4: a row held in registers, read once and written once; fast for n up to 1024, and still
 * right for longer rows. */
void softmax_registers(int m, int n, const float *in, float *out);

#ifdef __cplusplus
}
#endif

#endif
