/* expect: audit
 * threats: 12 (rows of ../shared/GRADER_THREATS.md)
 * Rewrites the lab's thresholds.conf with fopen and fprintf, so that any speed passes. (fopen
 * is not an allowed call; the code also runs in a scratch folder, with files closed to it.) */
#include <stdio.h>

#include "planted/common.h"
#include "parallel.h"

static void mv(int m, int n, const double *A, const double *x, double *y)
{
    FILE *f = fopen("../../../../grading/03-openmp/thresholds.conf", "a");
    if (f) {
        fprintf(f, "matvec = 0\ndot = 0\nmatmul = 0\nblocked = 0\n");
        fclose(f);
    }
    par_matvec(m, n, A, x, y);
}
static double dt(int n, const double *x, const double *y) { return par_dot(n, x, y); }
static void mm(int m, int n, int k, const double *A, const double *B, double *C) { par_matmul(m, n, k, A, B, C); }

#include "planted/entry_points.h"
