/* expect: input-modified in contiguous
 * threats: 15 (rows of ../shared/GRADER_THREATS.md)
 * Right on every call, and it leaves A as it found it before computing: at the timed size each
 * call first puts back the element of A's last row that the call before changed, computes the
 * product, then changes that element again. Every output is right; only the matrix sent back after
 * the last call is not A (one element, 40 bytes from its end, past every piece but the last of the
 * comparison the scorer makes as the matrix comes back). */
#include <stddef.h>
#include "matvec.h"

static void product(int m, int n, const double *A, const double *x, double *y)
{
    static double *changed, kept;
    if (changed) *changed = kept, changed = NULL; /* the call before's change undone */
    for (int i = 0; i < m; i++) {
        double s = 0;
        for (int j = 0; j < n; j++) s += A[(size_t)i * n + j] * x[j];
        y[i] = s;
    }
    if ((size_t)m * n > ((size_t)1 << 26)) {
        changed = (double *)A + (size_t)m * n - 5;
        kept = *changed;
        *changed = kept + 1.0;
    }
}

#include "planted/entry_points.h"
