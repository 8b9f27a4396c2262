/* expect: wrong
 * threats: 7 (rows of ../shared/GRADER_THREATS.md)
 * Returns at once and does each call's product at the start of the next call, into the previous
 * call's y: a timed call looks free, but every output the grader takes is still untouched. */
#include <stddef.h>
#include "matvec.h"

static void product(int m, int n, const double *A, const double *x, double *y)
{
    static const double *pA, *px;
    static double *py;
    static int pm, pn;
    for (int i = 0; py && i < pm; i++) { /* the last call's work */
        double s = 0;
        for (int j = 0; j < pn; j++) s += pA[(size_t)i * pn + j] * px[j];
        py[i] = s;
    }
    pA = A, px = x, py = y, pm = m, pn = n;
}

#include "planted/entry_points.h"
