/* expect: wrong in matmul,blocked
 * threats: 28 (rows of ../shared/GRADER_THREATS.md)
 * Accumulates A B in a malloc'd scratch array it never clears, rows shared out, then adds it to
 * C. Fresh memory from the system is zero, so some calls are right by luck; the grader calls
 * again with new inputs in the same process, and recycled memory holds the last call's sums. */
#include <stdlib.h>

#define PLANT_STAGES "matmul,blocked"
#include "planted/common.h"
#include "parallel.h"

static void mm(int m, int n, int k, const double *A, const double *B, double *C)
{
    double *P = malloc((size_t)m * n * sizeof *P + 1); /* not calloc: "every element is written" */
#pragma omp parallel for schedule(static)
    for (int i = 0; i < m; i++)
        for (int p = 0; p < k; p++)
            for (int j = 0; j < n; j++) P[(size_t)i * n + j] += A[(size_t)i * k + p] * B[(size_t)p * n + j];
#pragma omp parallel for schedule(static)
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) C[(size_t)i * n + j] += P[(size_t)i * n + j];
    free(P);
}
static void mv(int m, int n, const double *A, const double *x, double *y) { par_matvec(m, n, A, x, y); }
static double dt(int n, const double *x, const double *y) { return par_dot(n, x, y); }

#include "planted/entry_points.h"
