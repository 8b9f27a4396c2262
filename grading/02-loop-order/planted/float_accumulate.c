/* expect: wrong
 * threats: 21 (rows of ../shared/GRADER_THREATS.md)
 * Converts A and B to float and accumulates each dot product in float (twice the SIMD width): a
 * precision downgrade. The bound is that of double arithmetic, (k + 1) eps (|C| + |A||B|). */
#include <stddef.h>

#include "gemm.h"

static void mm(int m, int n, int k, const double *A, const double *B, double *C)
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            float s = (float)C[(size_t)i * n + j];
            for (int p = 0; p < k; p++) s += (float)A[(size_t)i * k + p] * (float)B[(size_t)p * n + j];
            C[(size_t)i * n + j] = s;
        }
}

#include "planted/entry_points.h"
