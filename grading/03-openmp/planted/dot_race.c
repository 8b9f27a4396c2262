/* expect: wrong in dot
 * threats: 22 (rows of ../shared/GRADER_THREATS.md)
 * diagnosis: a race
 * The race of the handout: every thread adds into one shared sum without a reduction. Right at
 * one thread; at two or three, updates are lost. */
#include "planted/common.h"
#include "parallel.h"

double omp_dot(int n, const double *x, const double *y)
{
    double sum = 0;
#pragma omp parallel for
    for (int i = 0; i < n; i++) sum += x[i] * y[i];
    return sum;
}

/* The stages this plant is not about do nothing: they fail at once instead of being graded in full. */
void omp_matvec(int m, int n, const double *A, const double *x, double *y) { (void)m, (void)n, (void)A, (void)x, (void)y; }
void omp_matmul(int m, int n, int k, const double *A, const double *B, double *C) { (void)m, (void)n, (void)k, (void)A, (void)B, (void)C; }
void omp_blocked(int m, int n, int k, const double *A, const double *B, double *C) { (void)m, (void)n, (void)k, (void)A, (void)B, (void)C; }
