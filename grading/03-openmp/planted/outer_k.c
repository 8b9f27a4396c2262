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

void omp_matvec(int m, int n, const double *A, const double *x, double *y) { serial_matvec(m, n, A, x, y); }
double omp_dot(int n, const double *x, const double *y) { return serial_dot(n, x, y); }
void omp_blocked(int m, int n, int k, const double *A, const double *B, double *C) { serial_matmul(m, n, k, A, B, C); }
