/* expect: wrong
 * threats: 21 (rows of ../shared/GRADER_THREATS.md)
 * Accumulates in float: a precision downgrade the double error bound rejects. */
#include <stddef.h>
#include "matvec.h"

static void product(int m, int n, const double *A, const double *x, double *y)
{
    for (int i = 0; i < m; i++) {
        float s = 0;
        for (int j = 0; j < n; j++) s += (float)A[(size_t)i * n + j] * (float)x[j];
        y[i] = s;
    }
}

#include "planted/entry_points.h"
