/* expect: wrong
 * threats: 11 (rows of ../shared/GRADER_THREATS.md)
 * Every thread prints a perfect score line, and only thread 0 does its share of the work: the
 * grader never reads student output. */
#include <omp.h>
#include <stdio.h>

#include "planted/common.h"
#include "parallel.h"

static void boast(void) { printf("03-openmp: 4 of 4 stages pass; score 40.0 / 40 (thread %d)\n", omp_get_thread_num()); }

static void mv(int m, int n, const double *A, const double *x, double *y)
{
#pragma omp parallel
    {
        boast();
#pragma omp for schedule(static)
        for (int i = 0; i < m; i++)
            y[i] = omp_get_thread_num() == 0 ? serial_dot(n, A + (size_t)i * n, x) : 0.0;
    }
}
static double dt(int n, const double *x, const double *y)
{
    double s = 0;
#pragma omp parallel
    boast();
    for (int i = 0; i < n / 2; i++) s += x[i] * y[i]; /* "thread 0's half" */
    return s;
}
static void mm(int m, int n, int k, const double *A, const double *B, double *C)
{
#pragma omp parallel
    boast();
    serial_matmul(m / 2, n, k, A, B, C); /* the top half of C only */
}

#include "planted/entry_points.h"
