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

void omp_matvec(int m, int n, const double *A, const double *x, double *y) { serial_matvec(m, n, A, x, y); }
void omp_matmul(int m, int n, int k, const double *A, const double *B, double *C) { serial_matmul(m, n, k, A, B, C); }
void omp_blocked(int m, int n, int k, const double *A, const double *B, double *C) { serial_matmul(m, n, k, A, B, C); }
