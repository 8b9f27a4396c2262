/* expect: wrong
 * threats: 2, 28 (rows of ../shared/GRADER_THREATS.md)
 * diagnosis: read before it was written
 * Adds into y without clearing it first (reads the output before writing it). */
#include <stddef.h>
#include "matvec.h"

static void product(int m, int n, const double *A, const double *x, double *y)
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) y[i] += A[(size_t)i * n + j] * x[j];
}

#include "planted/entry_points.h"
