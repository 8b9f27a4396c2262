/* expect: wrong
 * threats: 7 (rows of ../shared/GRADER_THREATS.md)
 * Returns at once and does each call's work at the start of the next call, so a timed call
 * looks free: the work lands in C after the grader has already taken the output. */
#include "planted/common.h"
#include "gemm.h"

static void mm(int m, int n, int k, const double *A, const double *B, double *C)
{
    static const double *pA, *pB;
    static double *pC;
    static int pm, pn, pk;
    if (pC) ikj(pm, pn, pk, pA, pB, pC); /* last call's work, into last call's C */
    pA = A, pB = B, pC = C, pm = m, pn = n, pk = k;
}

#include "planted/entry_points.h"
