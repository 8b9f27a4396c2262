/* expect: wrong in matvec,dot
 * threats: 26 (rows of ../shared/GRADER_THREATS.md)
 * Honest on every small case and on the first call of the large timed case (the warm-up); on
 * the timed calls after it, does only the first half of the rows (matvec) or of the vector
 * (dot). The grader checks the output of every timed call, not only the warm-up's.
 * (The multiplies are left out: their timed check costs a 1024^3 reference product.) */
#define PLANT_STAGES "matvec,dot"
#include "planted/common.h"
#include "parallel.h"

static void mv(int m, int n, const double *A, const double *x, double *y)
{
    static int big_calls;
    int cheat = (double)m * n >= 1e6 && big_calls++ > 0;
    par_matvec(cheat ? m / 2 : m, n, A, x, y);
    for (int i = cheat ? m / 2 : m; i < m; i++) y[i] = 0.0;
}
static double dt(int n, const double *x, const double *y)
{
    static int big_calls;
    int cheat = n >= 1000000 && big_calls++ > 0;
    return par_dot(cheat ? n / 2 : n, x, y);
}
static void mm(int m, int n, int k, const double *A, const double *B, double *C) { par_matmul(m, n, k, A, B, C); }

#include "planted/entry_points.h"
