/* expect: too-slow in ikj,kij
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * A stage skipped: `ikj` and `kij` run stage 1's i-j-k loop (a dot product down a column of B for
 * every element of C), so nothing walks B or C with stride 1. Right, and as slow as `ijk`: below
 * the orders' fraction of OpenBLAS, and not the 1.8x of `ijk` (measured in the same run, which is
 * why `ijk` runs it too) that the unit-stride orders must show. */
#include <stddef.h>

#define PLANT_STAGES "ijk,ikj,kij"

static void ijk(int m, int n, int k, const double *A, const double *B, double *C)
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            double s = C[(size_t)i * n + j];
            for (int p = 0; p < k; p++) s += A[(size_t)i * k + p] * B[(size_t)p * n + j];
            C[(size_t)i * n + j] = s;
        }
}

#define mm ijk
#include "planted/entry_points.h"
