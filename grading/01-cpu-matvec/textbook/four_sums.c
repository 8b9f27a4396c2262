/* textbook: unrolled
 * Unrolling as the textbooks teach it: the row's loop by four, into four running sums that are
 * added at the end, and a remainder loop for the last n % 4 columns. Four independent chains of
 * adds, so the adder's latency no longer sets the pace. Graded on `unrolled` only: a
 * technique-correct textbook kernel must pass it. */
#include <stddef.h>
#include "matvec.h"

static void product(int m, int n, const double *A, const double *x, double *y)
{
    for (int i = 0; i < m; i++) {
        const double *a = A + (size_t)i * n;
        double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
        int j = 0;
        for (; j + 3 < n; j += 4) {
            s0 += a[j] * x[j];
            s1 += a[j + 1] * x[j + 1];
            s2 += a[j + 2] * x[j + 2];
            s3 += a[j + 3] * x[j + 3];
        }
        for (; j < n; j++) s0 += a[j] * x[j];
        y[i] = (s0 + s1) + (s2 + s3);
    }
}

#include "planted/entry_points.h"
