/* expect: wrong in matvec
 * threats: 23, 24 (rows of ../shared/GRADER_THREATS.md)
 * diagnosis: some elements were never written
 * Shares the rows out by hand, m / threads each, and forgets the m % threads left over: right
 * whenever the thread count divides m (always at one thread), wrong at three threads. */
#include <omp.h>

#include "planted/common.h"
#include "parallel.h"

void omp_matvec(int m, int n, const double *A, const double *x, double *y)
{
#pragma omp parallel
    {
        int t = omp_get_thread_num(), chunk = m / omp_get_num_threads();
        for (int i = t * chunk; i < (t + 1) * chunk; i++) {
            double s = 0;
            for (int j = 0; j < n; j++) s += A[(size_t)i * n + j] * x[j];
            y[i] = s;
        }
    }
}

/* The stages this plant is not about do nothing: they fail at once instead of being graded in full. */
double omp_dot(int n, const double *x, const double *y) { return (void)n, (void)x, (void)y, 0.0; }
void omp_matmul(int m, int n, int k, const double *A, const double *B, double *C) { (void)m, (void)n, (void)k, (void)A, (void)B, (void)C; }
void omp_blocked(int m, int n, int k, const double *A, const double *B, double *C) { (void)m, (void)n, (void)k, (void)A, (void)B, (void)C; }
