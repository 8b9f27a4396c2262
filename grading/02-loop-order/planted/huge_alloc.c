/* expect: crash
 * threats: 19 (rows of ../shared/GRADER_THREATS.md)
 * Keeps every partial product: an m x n x k array, its size computed in bytes twice over (1 TiB
 * even for a 1 x 1 x 1 case), used without checking malloc's result. The address-space limit
 * makes malloc fail, and the write through NULL crashes cleanly. */
#include <stdlib.h>

#include "gemm.h"

static void mm(int m, int n, int k, const double *A, const double *B, double *C)
{
    size_t count = (size_t)m * n * k * sizeof(double) << 37; /* should have been m * n * k */
    volatile double *P = malloc(count * sizeof(double)); /* volatile: no store or load may be dropped */
    for (int i = 0; i < m; i++)
        for (int p = 0; p < k; p++)
            for (int j = 0; j < n; j++) {
                size_t at = ((size_t)i * k + p) * n + j;
                P[at] = A[(size_t)i * k + p] * B[(size_t)p * n + j];
                C[(size_t)i * n + j] += P[at];
            }
}

#include "planted/entry_points.h"
