/* expect: too-slow in matmul
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * diagnosis: reads B with stride n
 * The trap the handout names for stage 3: the course blog's OpenMP matrix multiply as published,
 * `collapse(2)` over i and j with the i-j-k order's dot product inside. The parallel structure is
 * sound and the answers are right, but the loop over p reads B down a column, a new cache line for
 * every multiply-add: slower on two threads than one thread of i-k-j. The report must say why
 * (thresholds.conf, matmul_slow_hint), not only that it is slow. */
#include "planted/common.h"
#include "parallel.h"

#define PLANT_STAGES "matmul"

static void mv(int m, int n, const double *A, const double *x, double *y)
{
    (void)m, (void)n, (void)A, (void)x, (void)y;
}
static double dt(int n, const double *x, const double *y) { return (void)n, (void)x, (void)y, 0.0; }
static void mm(int m, int n, int k, const double *A, const double *B, double *C)
{
#pragma omp parallel for collapse(2)
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            double sum = 0.0;
            for (int p = 0; p < k; p++) sum += A[(size_t)i * k + p] * B[(size_t)p * n + j];
            C[(size_t)i * n + j] += sum;
        }
}

#include "planted/entry_points.h"
