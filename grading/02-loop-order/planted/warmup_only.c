/* expect: wrong in kij
 * threats: 26 (rows of ../shared/GRADER_THREATS.md)
 * Honest on every small case and on the first call of the large timed case (the warm-up), then
 * does half the work on the calls that are timed. The grader checks the output of every timed
 * call, not only the warm-up's. (One stage, timed at 512^3: the check costs a reference product.) */
#define PLANT_STAGES "kij"
#include "planted/common.h"
#include "gemm.h"

static void mm(int m, int n, int k, const double *A, const double *B, double *C)
{
    static int big_calls;
    if ((double)m * n * k >= 512.0 * 512 * 512 && big_calls++ > 0) {
        ikj(m / 2, n, k, A, B, C); /* the top half of C only */
        return;
    }
    ikj(m, n, k, A, B, C);
}

#include "planted/entry_points.h"
