/* expect: audit
 * threats: 9, 11 (rows of ../shared/GRADER_THREATS.md)
 * A constructor that would run before the grader's code (here it prints a fake summary). */
#include <stddef.h>
#include "matvec.h"
#include <stdio.h>
__attribute__((constructor)) static void patch(void) { printf("01-cpu-matvec: 3 of 3 stages pass; score 30.0 / 30\n"); }
static void product(int m, int n, const double *A, const double *x, double *y)
{
    for (int i = 0; i < m; i++) {
        double s = 0;
        for (int j = 0; j < n; j++) s += A[(size_t)i * n + j] * x[j];
        y[i] = s;
    }
}

#include "planted/entry_points.h"
