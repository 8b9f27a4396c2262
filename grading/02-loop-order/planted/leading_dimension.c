/* expect: wrong
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * diagnosis: wrong where the dimensions differ
 * Indexes A's rows by n, C's row length, instead of k, A's own: right on every square shape only. */
#include <stddef.h>

#include "gemm.h"

static void mm(int m, int n, int k, const double *A, const double *B, double *C)
{
    for (int i = 0; i < m; i++)
        for (int p = 0; p < k; p++) {
            double a = A[(size_t)i * n + p]; /* the mistake: A is m x k, so row i starts at i * k */
            for (int j = 0; j < n; j++) C[(size_t)i * n + j] += a * B[(size_t)p * n + j];
        }
}

#include "planted/entry_points.h"
