/* expect: no-speedup in dot
 * threats: 36 (rows of ../shared/GRADER_THREATS.md)
 * Serial code that fakes a speedup by slowing its own one-thread run: when OpenMP says one thread,
 * it does the work three times. Its rate at full thread count is plain serial code's, fast enough
 * for the stages' fractions, so only the speedup check can tell; judged against the one-thread
 * roof measured by the grader, which no serial code beats, the slowed run does not count. (Dot
 * only: matvec's one-thread roof is within a few percent of the reference's rate on a machine
 * whose bandwidth grows little with cores, and matvec's serial loop here is too slow for its
 * fraction anyway.) */
#include <omp.h>

#include "planted/common.h"
#include "parallel.h"

#define PLANT_STAGES "dot"
static void mv(int m, int n, const double *A, const double *x, double *y)
{
    for (int r = omp_get_max_threads() == 1 ? 3 : 1; r > 0; r--) serial_matvec(m, n, A, x, y);
}

static double dt(int n, const double *x, const double *y)
{
    double s = 0;
    for (int r = omp_get_max_threads() == 1 ? 3 : 1; r > 0; r--) s = serial_dot(n, x, y);
    return s;
}

static void mm(int m, int n, int k, const double *A, const double *B, double *C) { serial_matmul(m, n, k, A, B, C); }

#include "planted/entry_points.h"
