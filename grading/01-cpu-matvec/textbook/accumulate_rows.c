/* textbook: rows
 * Stage 1's layout as C course notes build a two-dimensional array of run-time size: an array of
 * row pointers, each row its own allocation, read as A[i][j]. The product is the first form they
 * teach: y[i] set to zero, then y[i] += A[i][j] x[j] across the row, the running sum kept in y[i]
 * (as in accumulate_in_y.c, the same form over one block). Graded on `rows` only (the other
 * stages do nothing): a textbook kernel of the stage's layout must pass it. */
#include "matvec.h"

void matvec_rows(int m, int n, const double *const *A, const double *x, double *y)
{
    for (int i = 0; i < m; i++) {
        y[i] = 0;
        for (int j = 0; j < n; j++) y[i] += A[i][j] * x[j];
    }
}

void matvec_contiguous(int m, int n, const double *A, const double *x, double *y) { (void)m, (void)n, (void)A, (void)x, (void)y; }
void matvec_unrolled(int m, int n, const double *A, const double *x, double *y) { (void)m, (void)n, (void)A, (void)x, (void)y; }
