/* expect: input-modified
 * threats: 15 (rows of ../shared/GRADER_THREATS.md)
 * Right answer, but uses the last row of B as scratch space for a row of partial sums (after its
 * last use) and never puts it back: inputs are compared with a pristine copy after every call. */
#include "planted/common.h"
#include "gemm.h"

static void mm(int m, int n, int k, const double *A, const double *B, double *C)
{
    ikj(m, n, k, A, B, C);
    double *scratch = (double *)B + (size_t)(k - 1) * n; /* B's last row: "no longer needed" */
    for (int j = 0; j < n; j++) scratch[j] = 0;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) scratch[j] += C[(size_t)i * n + j]; /* column sums, for a debug check */
}

#include "planted/entry_points.h"
