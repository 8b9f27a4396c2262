/* expect: wrong
 * threats: 25 (rows of ../shared/GRADER_THREATS.md)
 * diagnosis: every element is zero
 * Computes each row's sum into a local and forgets to store it: y is set to zero and stays so.
 * Inputs are drawn so that a zero output is never right. */
#include <stddef.h>
#include "matvec.h"

static void product(int m, int n, const double *A, const double *x, double *y)
{
    for (int i = 0; i < m; i++) {
        double sum = 0;
        for (int j = 0; j < n; j++) sum += A[(size_t)i * n + j] * x[j];
        y[i] = 0 * sum;
    }
}

#include "planted/entry_points.h"
