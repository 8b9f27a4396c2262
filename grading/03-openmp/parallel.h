/* parallel.h - lab 03: the functions you write in labs/03-openmp/parallel.c. Do not edit.
 *
 * Matrices are row-major: A m x n has element (i, j) at A[i * n + j]. The grader sets the number
 * of threads (OMP_NUM_THREADS); your code must be right for any count, and must not set it. */
#ifndef PARALLEL_H
#define PARALLEL_H

/* Stage 1: y = A x, A m x n. */
void omp_matvec(int m, int n, const double *A, const double *x, double *y);

/* Stage 2: returns x[0] y[0] + ... + x[n-1] y[n-1]. */
double omp_dot(int n, const double *x, const double *y);

/* Stage 3: C += A B, A m x k, B k x n, C m x n. */
void omp_matmul(int m, int n, int k, const double *A, const double *B, double *C);

/* Stage 4: the same, with your blocked / register-blocked kernel from lab 02, parallelised. */
void omp_blocked(int m, int n, int k, const double *A, const double *B, double *C);

#endif
