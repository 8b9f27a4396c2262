/* expect: wrong in dot
 * threats: 22 (rows of ../shared/GRADER_THREATS.md)
 * diagnosis: a race
 * A race only the timed size shows: a reduction below 2^22 elements (every correctness case),
 * one shared sum without it beyond (the timed case, 4 x the last-level cache and at least 64 MiB
 * of data), so every correctness case is right and the timed calls lose updates. */
#include "planted/common.h"
#include "parallel.h"

double omp_dot(int n, const double *x, const double *y)
{
    double sum = 0;
    if (n < 1 << 22) {
#pragma omp parallel for reduction(+ : sum)
        for (int i = 0; i < n; i++) sum += x[i] * y[i];
        return sum;
    }
#pragma omp parallel for
    for (int i = 0; i < n; i++) sum += x[i] * y[i];
    return sum;
}

/* The stages this plant is not about do nothing: they fail at once instead of being graded in full. */
void omp_matvec(int m, int n, const double *A, const double *x, double *y) { (void)m, (void)n, (void)A, (void)x, (void)y; }
void omp_matmul(int m, int n, int k, const double *A, const double *B, double *C) { (void)m, (void)n, (void)k, (void)A, (void)B, (void)C; }
void omp_blocked(int m, int n, int k, const double *A, const double *B, double *C) { (void)m, (void)n, (void)k, (void)A, (void)B, (void)C; }
