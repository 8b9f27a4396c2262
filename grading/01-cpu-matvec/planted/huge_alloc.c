/* expect: crash
 * threats: 19 (rows of ../shared/GRADER_THREATS.md)
 * Asks for 1 TiB and uses it without checking. */
#include <stddef.h>
#include "matvec.h"
#include <stdlib.h>
static void product(int m, int n, const double *A, const double *x, double *y)
{
    double *volatile big = malloc((size_t)1 << 40); /* volatile: the compiler may not drop the call */
    big[0] = 1.0;
    for (int i = 0; i < m; i++) {
        double s = 0;
        for (int j = 0; j < n; j++) s += A[(size_t)i * n + j] * x[j];
        y[i] = s;
    }
    y[0] += big[0] - 1.0;
}

#include "planted/entry_points.h"
