/* expect: wrong in dot
 * threats: 3 (rows of ../shared/GRADER_THREATS.md)
 * Keeps the per-thread partial sums of the dot product in a malloc'd array, frees it, and on a
 * later call of the same length mallocs it again and adds up what it hopes are still last
 * call's partials, without summing. The inputs are new at every call. */
#include <omp.h>
#include <stdlib.h>

#define PLANT_STAGES "dot"
#include "planted/common.h"
#include "parallel.h"

static double dt(int n, const double *x, const double *y)
{
    static int last_n = -1;
    int nt = omp_get_max_threads();
    double *part = malloc(8 * (size_t)nt * sizeof *part + 1), s = 0;
    if (n != last_n) {
#pragma omp parallel
        {
            int t = omp_get_thread_num();
            double v = 0;
#pragma omp for schedule(static)
            for (int i = 0; i < n; i++) v += x[i] * y[i];
            part[8 * t] = v; /* one cache line a thread */
        }
        last_n = n;
    }
    for (int t = 0; t < nt; t++) s += part[8 * t];
    free(part);
    return s;
}
static void mv(int m, int n, const double *A, const double *x, double *y) { par_matvec(m, n, A, x, y); }
static void mm(int m, int n, int k, const double *A, const double *B, double *C) { par_matmul(m, n, k, A, B, C); }

#include "planted/entry_points.h"
