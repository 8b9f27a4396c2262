/* matvec.c - lab 01: y = A x on one core. This is the one file you edit for this lab.
 *
 * Read handouts/01-cpu-matvec.md first. The prototypes and data layouts are in
 * grading/01-cpu-matvec/matvec.h (do not edit it). Grade your work with:  make grade LAB=01
 *
 * Every function must write all m elements of y and must not change A or x. Helpers you add
 * must be `static`: the grader accepts only these three global functions. */
#include <stddef.h> /* size_t, for offsets like A + (size_t)i * n */

#include "matvec.h"

/* Stage 1: A[i] is row i, its own allocation of n doubles. */
void matvec_rows(int m, int n, const double *const *A, const double *x, double *y)
{
    /* TODO(stage 1): for each row i, y[i] = sum over j of A[i][j] * x[j]. */
    (void)m, (void)n, (void)A, (void)x, (void)y;
}

/* Stage 2: A is one row-major block; element (i, j) is A[i * n + j]. */
void matvec_contiguous(int m, int n, const double *A, const double *x, double *y)
{
    /* TODO(stage 2): the same product over the contiguous layout. */
    (void)m, (void)n, (void)A, (void)x, (void)y;
}

/* Stage 3: unroll the j loop by 4 into four independent accumulators; handle n % 4. */
void matvec_unrolled(int m, int n, const double *A, const double *x, double *y)
{
    /* TODO(stage 3): four partial sums per row, combined at the end, then the remainder. */
    (void)m, (void)n, (void)A, (void)x, (void)y;
}
