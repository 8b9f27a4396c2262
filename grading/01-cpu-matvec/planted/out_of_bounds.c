/* expect: out-of-bounds
 * threats: 16 (rows of ../shared/GRADER_THREATS.md)
 * Correct, then writes one element past the end of y. */
#include <stddef.h>
#include "matvec.h"

static void product(int m, int n, const double *A, const double *x, double *y)
{
    for (int i = 0; i < m; i++) {
        double s = 0;
        for (int j = 0; j < n; j++) s += A[(size_t)i * n + j] * x[j];
        y[i] = s;
    }
    y[m] = 0.0;
}

#include "planted/entry_points.h"
