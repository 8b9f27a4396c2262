/* expect: timeout
 * threats: 17 (rows of ../shared/GRADER_THREATS.md)
 * Never returns. */
#include <stddef.h>
#include "matvec.h"

static void product(int m, int n, const double *A, const double *x, double *y)
{
    (void)A, (void)x, (void)y, (void)n, (void)m;
    for (volatile int spin = 1; spin;) {
    }
}

#include "planted/entry_points.h"
