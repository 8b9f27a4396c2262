/* expect: output-flood
 * threats: 19 (rows of ../shared/GRADER_THREATS.md)
 * Every thread prints a progress line for every element it computes: the small cases pass, the
 * larger ones print megabytes, and the output-size limit stops the runner. */
#include <omp.h>
#include <stdio.h>

#include "planted/common.h"
#include "parallel.h"

static void mv(int m, int n, const double *A, const double *x, double *y)
{
#pragma omp parallel for schedule(static)
    for (int i = 0; i < m; i++) {
        y[i] = serial_dot(n, A + (size_t)i * n, x);
        for (int j = 0; j < n; j++) printf("thread %d: row %d, column %d done\n", omp_get_thread_num(), i, j);
    }
}
static double dt(int n, const double *x, const double *y)
{
    double s = 0;
#pragma omp parallel for reduction(+ : s) schedule(static)
    for (int i = 0; i < n; i++) {
        s += x[i] * y[i];
        printf("thread %d: element %d of %d, partial sum %.17g\n", omp_get_thread_num(), i, n, s);
    }
    return s;
}
static void mm(int m, int n, int k, const double *A, const double *B, double *C)
{
#pragma omp parallel for schedule(static)
    for (int i = 0; i < m; i++)
        for (int p = 0; p < k; p++)
            for (int j = 0; j < n; j++) {
                C[(size_t)i * n + j] += A[(size_t)i * k + p] * B[(size_t)p * n + j];
                printf("thread %d: C[%d][%d] after p = %d\n", omp_get_thread_num(), i, j, p);
            }
}

#include "planted/entry_points.h"
