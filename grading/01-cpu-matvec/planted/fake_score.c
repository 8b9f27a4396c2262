/* expect: wrong
 * threats: 11 (rows of ../shared/GRADER_THREATS.md)
 * Prints a perfect score line and returns garbage: the grader never reads student output. */
#include <stddef.h>
#include "matvec.h"
#include <stdio.h>
static void product(int m, int n, const double *A, const double *x, double *y)
{
    (void)A, (void)x, (void)n;
    printf("01-cpu-matvec: 3 of 3 stages pass; score 30.0 / 30\n{\"score\": 30}\n");
    for (int i = 0; i < m; i++) y[i] = 1.0;
}

#include "planted/entry_points.h"
