/* expect: wrong
 * threats: 7 (rows of ../shared/GRADER_THREATS.md)
 * Does each call's work at the start of the next call and returns at once, so the timed call
 * looks free: matvec and matmul write last call's result, and dot returns last call's sum. */
#include "planted/common.h"
#include "parallel.h"

static void mv(int m, int n, const double *A, const double *x, double *y)
{
    static const double *pA, *px;
    static double *py;
    static int pm, pn;
    if (py) par_matvec(pm, pn, pA, px, py);
    pA = A, px = x, py = y, pm = m, pn = n;
}

static double dt(int n, const double *x, const double *y)
{
    static const double *px, *py;
    static int pn;
    double s = px ? par_dot(pn, px, py) : 0.0;
    px = x, py = y, pn = n;
    return s;
}

static void mm(int m, int n, int k, const double *A, const double *B, double *C)
{
    static const double *pA, *pB;
    static double *pC;
    static int pm, pn, pk;
    if (pC) par_matmul(pm, pn, pk, pA, pB, pC);
    pA = A, pB = B, pC = C, pm = m, pn = n, pk = k;
}

#include "planted/entry_points.h"
