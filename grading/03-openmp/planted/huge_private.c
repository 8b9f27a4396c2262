/* expect: crash
 * threats: 19 (rows of ../shared/GRADER_THREATS.md)
 * Gives every thread a private copy of its output, sized with the byte count multiplied in
 * once too often (terabytes), and uses it without checking malloc's result: the address-space
 * limit makes malloc fail, and the write through NULL crashes cleanly. */
#include <omp.h>
#include <stdlib.h>

#include "planted/common.h"
#include "parallel.h"

static double *private_copy(size_t elems)
{
    size_t bytes = elems * sizeof(double) * ((size_t)1 << 40); /* "times the page count" */
    volatile double *p = malloc(bytes);
    p[0] = 0.0; /* volatile: the compiler may not drop the store (and with it the crash) */
    return (double *)p;
}

static void mv(int m, int n, const double *A, const double *x, double *y)
{
#pragma omp parallel
    {
        double *mine = private_copy((size_t)m);
#pragma omp for schedule(static)
        for (int i = 0; i < m; i++) mine[i] = serial_dot(n, A + (size_t)i * n, x);
#pragma omp for schedule(static)
        for (int i = 0; i < m; i++) y[i] = mine[i];
        free(mine);
    }
}
static double dt(int n, const double *x, const double *y)
{
    double *mine = private_copy(1);
    mine[0] = par_dot(n, x, y);
    double s = mine[0];
    free(mine);
    return s;
}
static void mm(int m, int n, int k, const double *A, const double *B, double *C)
{
    double *mine = private_copy((size_t)m * n);
    mine[0] = 0.0;
    par_matmul(m, n, k, A, B, C);
    free(mine);
}

#include "planted/entry_points.h"
