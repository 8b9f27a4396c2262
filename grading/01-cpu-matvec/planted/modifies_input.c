/* expect: input-modified
 * threats: 15 (rows of ../shared/GRADER_THREATS.md)
 * Computes the right answer but scales x in place first and back afterwards, badly. */
#include <stddef.h>
#include "matvec.h"

static void product(int m, int n, const double *A, const double *x, double *y)
{
    double *w = (double *)x;
    for (int j = 0; j < n; j++) w[j] *= 3.0;
    for (int i = 0; i < m; i++) {
        double s = 0;
        for (int j = 0; j < n; j++) s += A[(size_t)i * n + j] * x[j];
        y[i] = s / 3.0;
    }
    for (int j = 0; j < n; j++) w[j] = w[j] / 3.0 + 1e-3;
}

#include "planted/entry_points.h"
