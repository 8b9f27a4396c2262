/* expect: out-of-bounds in matvec,matmul,blocked
 * threats: 16 (rows of ../shared/GRADER_THREATS.md)
 * Shares the rows out by hand and starts each thread's band one row early "to overlap the
 * edges": thread 0 writes the row before the first, outside the output, into the guard zone the
 * grader puts before it. (Dot has no output array to write past: it is left out.) */
#include <omp.h>

#define PLANT_STAGES "matvec,matmul,blocked"
#include "planted/common.h"
#include "parallel.h"

static void band(int m, int *lo, int *hi)
{
    int t = omp_get_thread_num(), nt = omp_get_num_threads();
    *lo = (int)((long)m * t / nt) - 1; /* one row early */
    *hi = (int)((long)m * (t + 1) / nt);
}

static void mv(int m, int n, const double *A, const double *x, double *y)
{
#pragma omp parallel
    {
        int lo, hi;
        band(m, &lo, &hi);
        for (int i = lo; i < hi; i++) y[i] = i >= 0 ? serial_dot(n, A + (size_t)i * n, x) : 0.0;
    }
}
static double dt(int n, const double *x, const double *y) { return par_dot(n, x, y); }
static void mm(int m, int n, int k, const double *A, const double *B, double *C)
{
#pragma omp parallel
    {
        int lo, hi;
        band(m, &lo, &hi);
        /* the last element of the row before the band: "a carry slot", zeroed; for thread 0,
         * the element before C */
        C[(long)lo * n + n - 1] = lo < 0 ? 0.0 : C[(long)lo * n + n - 1];
        lo++; /* then the band proper, no row twice */
        serial_matmul(hi - lo, n, k, A + (size_t)lo * k, B, C + (size_t)lo * n);
    }
}

#include "planted/entry_points.h"
