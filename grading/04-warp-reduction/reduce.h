/* reduce.h - lab 04: the functions you write in labs/04-warp-reduction/reduce.cu. Do not edit.
 *
 * Every pointer is a device pointer (the grader has copied the inputs to the GPU). Each function
 * launches your kernels on the default stream and returns; the grader synchronises and times. */
#ifndef REDUCE_H
#define REDUCE_H

#ifdef __cplusplus
extern "C" {
#endif

/* Stage 0: c[i] = a[i] + b[i] for 0 <= i < n. */
void vector_add(int n, const float *a, const float *b, float *c);

/* Stages 1-5: *out = in[0] + ... + in[n-1]. `work` is scratch space of max(n, 1024) floats,
 * with garbage in it at every call, for the partial sums between launches. */
void reduce_interleaved(int n, const float *in, float *out, float *work);
void reduce_strided(int n, const float *in, float *out, float *work);
void reduce_sequential(int n, const float *in, float *out, float *work);
void reduce_shuffle(int n, const float *in, float *out, float *work);
void reduce_vectorized(int n, const float *in, float *out, float *work);

/* Stages 6-8: y = A x in double; A is m x n row-major (element (i, j) at A[i * n + j]). */
void matvec_thread(int m, int n, const double *A, const double *x, double *y);
void matvec_warp(int m, int n, const double *A, const double *x, double *y);
void matvec_block(int m, int n, const double *A, const double *x, double *y);

#ifdef __cplusplus
}
#endif

#endif
