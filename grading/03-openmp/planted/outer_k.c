/* expect: wrong in matmul
 * threats: 22 (rows of ../shared/GRADER_THREATS.md)
 * diagnosis: a race
 * Lab 02's fastest serial order, k-i-j, with its outer loop shared out: every thread adds into
 * every element of C at once, and read-modify-writes from different threads overwrite each other. */
#include "planted/common.h"
#include "parallel.h"

void omp_matmul(int m, int n, int k, const double *A, const double *B, double *C)
{
#pragma omp parallel for
    for (int p = 0; p < k; p++)
        for (int i = 0; i < m; i++)
            for (int j = 0; j < n; j++) C[(size_t)i * n + j] += A[(size_t)i * k + p] * B[(size_t)p * n + j];
}

/* The stages this plant is not about do nothing: they fail at once instead of being graded in full. */
void omp_matvec(int m, int n, const double *A, const double *x, double *y) { (void)m, (void)n, (void)A, (void)x, (void)y; }
double omp_dot(int n, const double *x, const double *y) { return (void)n, (void)x, (void)y, 0.0; }
void omp_blocked(int m, int n, int k, const double *A, const double *B, double *C) { (void)m, (void)n, (void)k, (void)A, (void)B, (void)C; }
