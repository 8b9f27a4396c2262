/* expect: audit
 * threats: 10 (rows of ../shared/GRADER_THREATS.md)
 * Calls _exit(0) in the middle of the test (rejected: _exit is not an allowed call). */
#include <stddef.h>
#include "matvec.h"
#include <unistd.h>
static void product(int m, int n, const double *A, const double *x, double *y)
{
    (void)A, (void)x, (void)y, (void)n, (void)m;
    _exit(0);
}

#include "planted/entry_points.h"
