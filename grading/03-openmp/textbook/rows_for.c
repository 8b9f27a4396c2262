/* textbook: matvec
 * The parallel matrix-vector product as OpenMP tutorials first show it: `#pragma omp parallel for`
 * on the row loop, one running sum per row declared inside it (so private), nothing else. Graded on
 * `matvec` only (the other stages do nothing): a technique-correct textbook kernel must pass. */
#include "planted/common.h"
#include "parallel.h"

#define PLANT_STAGES "matvec"

static void mv(int m, int n, const double *A, const double *x, double *y)
{
#pragma omp parallel for
    for (int i = 0; i < m; i++) {
        double sum = 0.0;
        for (int j = 0; j < n; j++) sum += A[(size_t)i * n + j] * x[j];
        y[i] = sum;
    }
}
static double dt(int n, const double *x, const double *y) { return (void)n, (void)x, (void)y, 0.0; }
static void mm(int m, int n, int k, const double *A, const double *B, double *C)
{
    (void)m, (void)n, (void)k, (void)A, (void)B, (void)C;
}

#include "planted/entry_points.h"
