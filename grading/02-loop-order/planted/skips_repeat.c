/* expect: wrong
 * threats: 2 (rows of ../shared/GRADER_THREATS.md)
 * Skips the work when called again with the same C and shape, trusting that C still holds the
 * product from last time. The grader restores C's initial contents before every call (and the
 * second correctness call has new inputs), so a skipped call leaves C += 0. */
#include "planted/common.h"
#include "gemm.h"

static void mm(int m, int n, int k, const double *A, const double *B, double *C)
{
    static const double *last_C;
    static int last_m, last_n, last_k;
    if (C == last_C && m == last_m && n == last_n && k == last_k) return;
    ikj(m, n, k, A, B, C);
    last_C = C, last_m = m, last_n = n, last_k = k;
}

#include "planted/entry_points.h"
