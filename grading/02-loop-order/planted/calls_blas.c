/* expect: audit
 * threats: 14 (rows of ../shared/GRADER_THREATS.md)
 * Hands the product to OpenBLAS. Not allowed: BLAS is not on the link line, and the audit
 * rejects the call before anything runs. */
#include <cblas.h>

#include "gemm.h"

static void mm(int m, int n, int k, const double *A, const double *B, double *C)
{
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0, A, k, B, n, 1.0, C, n);
}

#include "planted/entry_points.h"
