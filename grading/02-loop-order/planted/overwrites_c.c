/* expect: wrong
 * threats: 24 (rows of ../shared/GRADER_THREATS.md)
 * Computes A B but stores it over C instead of adding to it: C's values on entry are lost. */
#include <stddef.h>

#include "gemm.h"

static void mm(int m, int n, int k, const double *A, const double *B, double *C)
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            double s = 0.0;
            for (int p = 0; p < k; p++) s += A[(size_t)i * k + p] * B[(size_t)p * n + j];
            C[(size_t)i * n + j] = s;
        }
}

#include "planted/entry_points.h"
