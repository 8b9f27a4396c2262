/* textbook: dot
 * The dot product as every OpenMP tutorial writes it: one loop, `#pragma omp parallel for
 * reduction(+ : sum)`, the sum a plain double. Graded on `dot` only (the other stages do nothing):
 * a technique-correct textbook kernel must pass. */
#include "planted/common.h"
#include "parallel.h"

#define PLANT_STAGES "dot"

static void mv(int m, int n, const double *A, const double *x, double *y)
{
    (void)m, (void)n, (void)A, (void)x, (void)y;
}
static double dt(int n, const double *x, const double *y)
{
    double sum = 0.0;
#pragma omp parallel for reduction(+ : sum)
    for (int i = 0; i < n; i++) sum += x[i] * y[i];
    return sum;
}
static void mm(int m, int n, int k, const double *A, const double *B, double *C)
{
    (void)m, (void)n, (void)k, (void)A, (void)B, (void)C;
}

#include "planted/entry_points.h"
