/* expect: crash
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * diagnosis: SANITIZE=1
 * Dereferences a null pointer. */
#include <stddef.h>
#include "matvec.h"

static void product(int m, int n, const double *A, const double *x, double *y)
{
    (void)A, (void)x, (void)y, (void)n;
    volatile double *p = NULL;
    for (int i = 0; i < m; i++) p[i] = 1.0;
}

#include "planted/entry_points.h"
