/* sgemm.h - lab 06: the functions you write in labs/06-tiling/sgemm.cu. Do not edit.
 *
 * All compute C = alpha A B + beta C in float, row-major: A is M x K (element (i, p) at A[i * K + p],
 * lda = K), B is K x N (element (p, j) at B[p * N + j], ldb = N), C is M x N (element (i, j) at
 * C[i * N + j], ldc = N). Any M, N, K >= 1, not only multiples of your tile. When beta == 0, C's
 * old contents may be garbage (NaN included) and must not be read: cuBLAS's rule (the grader
 * itself calls with alpha = 1.5, beta = -0.5).
 *
 * Every pointer is a device pointer (the grader has copied the inputs to the GPU). Each function
 * launches your kernels on the default stream and returns; the grader synchronises and times. */
#ifndef SGEMM_H
#define SGEMM_H

#ifdef __cplusplus
extern "C" {
#endif

/* Stage 1: one thread per element of C, consecutive threads down a column (uncoalesced). */
void sgemm_naive(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C);

/* Stage 2: one thread per element of C, consecutive threads along a row (coalesced). */
void sgemm_coalesced(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C);

/* Stage 3: 32 x 32 tiles of A and B staged through shared memory. */
void sgemm_smem_tiled(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C);

/* Stage 4: 1D register tiling: each thread computes several elements of one column of C. */
void sgemm_coarsened(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C);

/* Stage 5: 2D register tiling: each thread computes an 8 x 8 block of C. */
void sgemm_register_2d(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C);

/* Stage 6: float4 loads, A transposed in shared memory, padded against bank conflicts, double buffering. */
void sgemm_vectorized(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C);

#ifdef __cplusplus
}
#endif

#endif
