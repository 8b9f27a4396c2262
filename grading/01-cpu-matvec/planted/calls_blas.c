/* expect: audit
 * threats: 14 (rows of ../shared/GRADER_THREATS.md)
 * Hands the product to OpenBLAS's dgemv. BLAS is not on lab 01's link line, and the audit
 * rejects the call before anything runs. */
#include <cblas.h>

#include "matvec.h"

static void product(int m, int n, const double *A, const double *x, double *y)
{
    cblas_dgemv(CblasRowMajor, CblasNoTrans, m, n, 1.0, A, n, x, 1, 0.0, y, 1);
}

#include "planted/entry_points.h"
