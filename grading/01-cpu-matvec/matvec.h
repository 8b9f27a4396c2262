/* matvec.h - lab 01: the functions you write in labs/01-cpu-matvec/matvec.c. Do not edit.
 *
 * All three compute y = A x in double. A is m x n, x has n elements, y has m elements.
 * Write every element of y; read A and x only. */
#ifndef MATVEC_H
#define MATVEC_H

/* Stage 1: A[i] points to row i, a separate allocation of n doubles. */
void matvec_rows(int m, int n, const double *const *A, const double *x, double *y);

/* Stage 2: A is one contiguous row-major block: element (i, j) is A[i * n + j]. */
void matvec_contiguous(int m, int n, const double *A, const double *x, double *y);

/* Stage 3: as stage 2, with the j loop unrolled by 4 into independent accumulators. */
void matvec_unrolled(int m, int n, const double *A, const double *x, double *y);

#endif
