/* gemm.h - lab 02: the functions you write in labs/02-loop-order/gemm.c. Do not edit.
 *
 * All compute C += A B in double, row-major: A is m x k (element (i, p) at A[i * k + p]),
 * B is k x n (element (p, j) at B[p * n + j]), C is m x n (element (i, j) at C[i * n + j]).
 * C holds values on entry: add to them. Read A and B only. */
#ifndef GEMM_H
#define GEMM_H

/* Stage 1: the six loop orders, named outermost loop first. */
void gemm_ijk(int m, int n, int k, const double *A, const double *B, double *C);
void gemm_ikj(int m, int n, int k, const double *A, const double *B, double *C);
void gemm_jik(int m, int n, int k, const double *A, const double *B, double *C);
void gemm_jki(int m, int n, int k, const double *A, const double *B, double *C);
void gemm_kij(int m, int n, int k, const double *A, const double *B, double *C);
void gemm_kji(int m, int n, int k, const double *A, const double *B, double *C);

/* Stage 2: cache blocking around a unit-stride inner loop. */
void gemm_blocked(int m, int n, int k, const double *A, const double *B, double *C);

/* Stage 3: a register-blocked micro-kernel (a small block of C kept in local variables). */
void gemm_register(int m, int n, int k, const double *A, const double *B, double *C);

#endif
