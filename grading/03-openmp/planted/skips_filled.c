/* expect: wrong in matvec
 * threats: 2 (rows of ../shared/GRADER_THREATS.md)
 * "The output starts as NaN": skips every row whose y[i] already holds a number, trusting it
 * to be last call's answer. The grader poisons the output before every call, alternately with
 * NaN and with a finite sentinel (-3.25e30), so the second call skips every row. */
#define PLANT_STAGES "matvec"
#include "planted/common.h"
#include "parallel.h"

static void mv(int m, int n, const double *A, const double *x, double *y)
{
#pragma omp parallel for schedule(static)
    for (int i = 0; i < m; i++) {
        if (y[i] == y[i]) continue; /* not NaN: "already computed" */
        double s = 0;
        for (int j = 0; j < n; j++) s += A[(size_t)i * n + j] * x[j];
        y[i] = s;
    }
}
static double dt(int n, const double *x, const double *y) { return par_dot(n, x, y); }
static void mm(int m, int n, int k, const double *A, const double *B, double *C) { par_matmul(m, n, k, A, B, C); }

#include "planted/entry_points.h"
