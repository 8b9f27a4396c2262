/* expect: audit
 * threats: 12, 13 (rows of ../shared/GRADER_THREATS.md)
 * Opens the reference solution at run time (fopen is not an allowed call). */
#include <stddef.h>
#include "matvec.h"
#include <stdio.h>
static void product(int m, int n, const double *A, const double *x, double *y)
{
    for (int i = 0; i < m; i++) {
        double s = 0;
        for (int j = 0; j < n; j++) s += A[(size_t)i * n + j] * x[j];
        y[i] = s;
    }
    FILE *f = fopen("solutions/01-cpu-matvec/matvec.c", "r");
    if (f) fclose(f);
}

#include "planted/entry_points.h"
