/* expect: technique in unrolled
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * A stage skipped: `unrolled` runs stage 2's loop, one running sum a row (right, and unit stride:
 * the student who found contiguous already fast). One chain of dependent adds is held to the add
 * latency's rate, below the memory roof the stage is judged against. */
#include <stddef.h>
#include "matvec.h"

static void product(int m, int n, const double *A, const double *x, double *y)
{
    for (int i = 0; i < m; i++) {
        double s = 0;
        for (int j = 0; j < n; j++) s += A[(size_t)i * n + j] * x[j];
        y[i] = s;
    }
}

#include "planted/entry_points.h"
