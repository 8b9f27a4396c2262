/* expect: wrong
 * threats: 16 (rows of ../shared/GRADER_THREATS.md)
 * diagnosis: a read past the end
 * Loops j <= n: reads one element past the end of each row of A (stage 1: past the row's own
 * allocation, weighted by zero so only a NaN there shows it) and, in stages 2 and 3, past the end
 * of x. The memory around every input holds NaN, so the read spoils the sum it enters. */
#include <stddef.h>

#include "matvec.h"

void matvec_rows(int m, int n, const double *const *A, const double *x, double *y)
{
    for (int i = 0; i < m; i++) {
        double s = 0;
        for (int j = 0; j <= n; j++) s += A[i][j] * (j < n ? x[j] : 0.0);
        y[i] = s;
    }
}

void matvec_contiguous(int m, int n, const double *A, const double *x, double *y)
{
    for (int i = 0; i < m; i++) {
        double s = 0;
        for (int j = 0; j <= n; j++) s += A[(size_t)i * n + j] * x[j];
        y[i] = s;
    }
}

void matvec_unrolled(int m, int n, const double *A, const double *x, double *y) { matvec_contiguous(m, n, A, x, y); }
