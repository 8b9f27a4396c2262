/* gemm.c - lab 02: C += A B in double. This is the one file you edit for this lab.
 *
 * Read handouts/02-loop-order.md first. The prototypes and layouts are in
 * grading/02-loop-order/gemm.h (do not edit it). Grade your work with:  make grade LAB=02
 *
 * A is m x k (A[i * k + p]), B is k x n (B[p * n + j]), C is m x n (C[i * n + j]), row-major.
 * C holds values on entry: add to them. Helpers you add must be `static`; BLAS is not allowed. */
#include <stddef.h> /* size_t, for offsets like A + (size_t)i * n */

#include "gemm.h"

/* TODO(stage 1): the six loop orders. Each is three nested loops around
 *     C[i * n + j] += A[i * k + p] * B[p * n + j];
 * with the loops in the order the name gives, outermost first (gemm_ikj: i, then p, then j). */
void gemm_ijk(int m, int n, int k, const double *A, const double *B, double *C)
{
    (void)m, (void)n, (void)k, (void)A, (void)B, (void)C;
}

void gemm_ikj(int m, int n, int k, const double *A, const double *B, double *C)
{
    (void)m, (void)n, (void)k, (void)A, (void)B, (void)C;
}

void gemm_jik(int m, int n, int k, const double *A, const double *B, double *C)
{
    (void)m, (void)n, (void)k, (void)A, (void)B, (void)C;
}

void gemm_jki(int m, int n, int k, const double *A, const double *B, double *C)
{
    (void)m, (void)n, (void)k, (void)A, (void)B, (void)C;
}

void gemm_kij(int m, int n, int k, const double *A, const double *B, double *C)
{
    (void)m, (void)n, (void)k, (void)A, (void)B, (void)C;
}

void gemm_kji(int m, int n, int k, const double *A, const double *B, double *C)
{
    (void)m, (void)n, (void)k, (void)A, (void)B, (void)C;
}

/* TODO(stage 2): cache blocking. Split i, p and j into blocks sized for a cache level, and keep
 * the innermost loop unit-stride (over j) so it still vectorises. Mind the edge blocks. */
void gemm_blocked(int m, int n, int k, const double *A, const double *B, double *C)
{
    (void)m, (void)n, (void)k, (void)A, (void)B, (void)C;
}

/* TODO(stage 3): register blocking. Keep a small block of C (say 4 rows x 16 columns) in local
 * variables across the whole p loop, so each loaded element of A and B is used many times.
 * Handle the rows and columns left over at the edges. */
void gemm_register(int m, int n, int k, const double *A, const double *B, double *C)
{
    (void)m, (void)n, (void)k, (void)A, (void)B, (void)C;
}
