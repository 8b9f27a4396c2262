/* expect: too-slow in mv_warp
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * A stage skipped: `mv_warp` runs stage 7's code, a thread per row: each thread walks its own row,
 * so a warp's 32 loads fall in 32 rows n doubles apart (a cache line each). Right at every shape;
 * at the judged shape it reads memory at about 29% of the copy's rate (mv_thread's reference) where
 * a warp per row streams it. */
#include "reduce.h"
#include <cuda_runtime.h>

#define PLANT_STAGES "mv_warp"

static __global__ void thread_per_row(int m, int n, const double *A, const double *x, double *y)
{
    int row = (int)(blockIdx.x * (long)blockDim.x + threadIdx.x);
    if (row >= m) return;
    const double *a = A + (size_t)row * n;
    double s = 0.0;
    for (int j = 0; j < n; j++) s += a[j] * x[j];
    y[row] = s;
}

static void add(int, const float *, const float *, float *) {}
static void sum(int, const float *, float *, float *) {}
static void mv(int m, int n, const double *A, const double *x, double *y)
{
    if (m > 0) thread_per_row<<<(m + 255) / 256, 256>>>(m, n, A, x, y);
}

#include "planted/entry_points.h"
