/* textbook: contiguous
 * The matrix-vector product as most textbooks and course notes first write it: y[i] set to zero,
 * then y[i] += A[i][j] x[j] across the row, A one row-major block indexed i * n + j. The running sum
 * lives in y[i], not in a local: the compiler cannot prove y does not overlap A or x, so it may
 * store and reload y[i] every step (handout 01, stage 1's hint). Graded on `contiguous` only: a
 * textbook kernel of the stage's layout must pass it. */
#include <stddef.h>
#include "matvec.h"

static void product(int m, int n, const double *A, const double *x, double *y)
{
    for (int i = 0; i < m; i++) {
        y[i] = 0;
        for (int j = 0; j < n; j++) y[i] += A[(size_t)i * n + j] * x[j];
    }
}

#include "planted/entry_points.h"
