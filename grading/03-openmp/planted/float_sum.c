/* expect: wrong
 * threats: 21 (rows of ../shared/GRADER_THREATS.md)
 * Sums in float (twice the SIMD width of double): each thread's partial sums and the
 * reduction. The bounds are those of double arithmetic, n eps sum |x_i y_i| and the like. */
#include "planted/common.h"
#include "parallel.h"

static void mv(int m, int n, const double *A, const double *x, double *y)
{
#pragma omp parallel for schedule(static)
    for (int i = 0; i < m; i++) {
        float s = 0;
        for (int j = 0; j < n; j++) s += (float)A[(size_t)i * n + j] * (float)x[j];
        y[i] = s;
    }
}
static double dt(int n, const double *x, const double *y)
{
    float s = 0;
#pragma omp parallel for reduction(+ : s) schedule(static)
    for (int i = 0; i < n; i++) s += (float)x[i] * (float)y[i];
    return s;
}
static void mm(int m, int n, int k, const double *A, const double *B, double *C)
{
#pragma omp parallel for schedule(static)
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            float s = (float)C[(size_t)i * n + j];
            for (int p = 0; p < k; p++) s += (float)A[(size_t)i * k + p] * (float)B[(size_t)p * n + j];
            C[(size_t)i * n + j] = s;
        }
}

#include "planted/entry_points.h"
