/* expect: wrong
 * threats: 20 (rows of ../shared/GRADER_THREATS.md)
 * diagnosis: NaN or Inf
 * Produces NaN (0/0) in every element. */
#include <stddef.h>
#include "matvec.h"

static void product(int m, int n, const double *A, const double *x, double *y)
{
    (void)A, (void)x;
    volatile double zero = 0;
    for (int i = 0; i < m; i++) y[i] = zero / zero * n;
}

#include "planted/entry_points.h"
