/* expect: input-modified
 * threats: 15 (rows of ../shared/GRADER_THREATS.md)
 * Right answers, but each thread marks the part of an input it has used by zeroing it (x for
 * matvec and dot, A for the multiplies), "so nothing is counted twice". Inputs are compared
 * with a pristine copy after every call. */
#include <omp.h>

#include "planted/common.h"
#include "parallel.h"

static void mv(int m, int n, const double *A, const double *x, double *y)
{
    par_matvec(m, n, A, x, y);
    double *w = (double *)x;
#pragma omp parallel for schedule(static)
    for (int j = 0; j < n; j++) w[j] = 0;
}
static double dt(int n, const double *x, const double *y)
{
    double s = 0, *w = (double *)x;
#pragma omp parallel for reduction(+ : s) schedule(static)
    for (int i = 0; i < n; i++) {
        s += x[i] * y[i];
        w[i] = 0;
    }
    return s;
}
static void mm(int m, int n, int k, const double *A, const double *B, double *C)
{
    par_matmul(m, n, k, A, B, C);
    double *w = (double *)A;
#pragma omp parallel for schedule(static)
    for (int i = 0; i < m; i++) w[(size_t)i * k] = 0; /* the first column of A */
}

#include "planted/entry_points.h"
