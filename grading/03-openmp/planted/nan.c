/* expect: wrong
 * threats: 20 (rows of ../shared/GRADER_THREATS.md)
 * Right except for one non-finite value: the last row of matvec is NaN (0 / 0), the dot product
 * comes back as infinity, and the last element of C is NaN. Every element is checked, and the
 * comparison is written so that NaN and infinity fail it. */
#include "planted/common.h"
#include "parallel.h"

static volatile double zero = 0;

static void mv(int m, int n, const double *A, const double *x, double *y)
{
    par_matvec(m, n, A, x, y);
    y[m - 1] = zero / zero;
}
static double dt(int n, const double *x, const double *y) { return par_dot(n, x, y) + 1.0 / zero; }
static void mm(int m, int n, int k, const double *A, const double *B, double *C)
{
    par_matmul(m, n, k, A, B, C);
    C[(size_t)m * n - 1] = zero / zero;
}

#include "planted/entry_points.h"
