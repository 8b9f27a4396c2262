/* expect: wrong
 * threats: 25 (rows of ../shared/GRADER_THREATS.md)
 * The trivial answers: y = 0, a dot product of 0, C left as it came (A B = 0). They would pass
 * on zero or constant inputs; the grader's inputs are random in [-1, 1), so they fail. */
#include "parallel.h"

static void mv(int m, int n, const double *A, const double *x, double *y)
{
    (void)n, (void)A, (void)x;
#pragma omp parallel for schedule(static)
    for (int i = 0; i < m; i++) y[i] = 0.0;
}
static double dt(int n, const double *x, const double *y)
{
    (void)n, (void)x, (void)y;
    return 0.0;
}
static void mm(int m, int n, int k, const double *A, const double *B, double *C)
{
    (void)m, (void)n, (void)k, (void)A, (void)B, (void)C;
}

#include "planted/entry_points.h"
