/* expect: wrong
 * threats: 20 (rows of ../shared/GRADER_THREATS.md)
 * Right everywhere but the last element of C, which becomes NaN (0 / 0): every element is
 * checked, and the comparison is written so that NaN fails it. */
#include "planted/common.h"
#include "gemm.h"

static void mm(int m, int n, int k, const double *A, const double *B, double *C)
{
    ikj(m, n, k, A, B, C);
    volatile double zero = 0;
    C[(size_t)m * n - 1] = zero / zero;
}

#include "planted/entry_points.h"
