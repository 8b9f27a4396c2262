/* expect: output-flood
 * threats: 19 (rows of ../shared/GRADER_THREATS.md)
 * Prints without end. */
#include <stddef.h>
#include "matvec.h"
#include <stdio.h>
static void product(int m, int n, const double *A, const double *x, double *y)
{
    (void)A, (void)x, (void)y, (void)n, (void)m;
    for (;;) printf("spam spam spam spam spam spam spam spam spam spam spam spam\n");
}

#include "planted/entry_points.h"
