/* expect: too-slow
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * Correct but recomputes each row six times. */
#include <stddef.h>
#include "matvec.h"

static void product(int m, int n, const double *A, const double *x, double *y)
{
    for (int rep = 0; rep < 6; rep++)
    for (int i = 0; i < m; i++) {
        double s = 0;
        for (int j = 0; j < n; j++) s += A[(size_t)i * n + j] * x[j];
        y[i] = s;
    }
}

#include "planted/entry_points.h"
