/* expect: audit
 * threats: 14 (rows of ../shared/GRADER_THREATS.md)
 * Hands every stage to OpenBLAS (threaded dgemv, ddot, dgemm). Not allowed: BLAS is not on the
 * link line, and the audit rejects the calls before anything runs. */
#include <cblas.h>

#include "parallel.h"

static void mv(int m, int n, const double *A, const double *x, double *y)
{
    cblas_dgemv(CblasRowMajor, CblasNoTrans, m, n, 1.0, A, n, x, 1, 0.0, y, 1);
}
static double dt(int n, const double *x, const double *y) { return cblas_ddot(n, x, 1, y, 1); }
static void mm(int m, int n, int k, const double *A, const double *B, double *C)
{
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0, A, k, B, n, 1.0, C, n);
}

#include "planted/entry_points.h"
