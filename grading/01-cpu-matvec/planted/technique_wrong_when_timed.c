/* expect: wrong in unrolled
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * A stage without its technique (`unrolled` keeps one chain of adds a row) that is also wrong, but
 * only at sizes no correctness case has: past 1500 rows it leaves the last row unwritten. Such a
 * stage is not timed (it cannot earn speed points), so its timed size, the only size that shows the
 * fault, must still be run and checked, or the stage earns its correctness points wrong (lab 10's
 * float_offsets did so in `lookback`, 2026-11-28). */
#include <stddef.h>
#include "matvec.h"

static double row_times(int n, const double *a, const double *x)
{
    double s = 0;
    for (int j = 0; j < n; j++) s += a[j] * x[j];
    return s;
}

void matvec_rows(int m, int n, const double *const *A, const double *x, double *y)
{
    for (int i = 0; i < m; i++) y[i] = row_times(n, A[i], x);
}

void matvec_contiguous(int m, int n, const double *A, const double *x, double *y)
{
    for (int i = 0; i < m; i++) y[i] = row_times(n, A + (size_t)i * n, x);
}

void matvec_unrolled(int m, int n, const double *A, const double *x, double *y)
{
    int rows = m > 1500 ? m - 1 : m;
    for (int i = 0; i < rows; i++) y[i] = row_times(n, A + (size_t)i * n, x);
}
