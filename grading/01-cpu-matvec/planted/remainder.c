/* expect: wrong
 * threats: 23, 24 (rows of ../shared/GRADER_THREATS.md)
 * diagnosis: remainder
 * Unrolled by 4 with the remainder loop forgotten: right only when n % 4 == 0. */
#include <stddef.h>
#include "matvec.h"

static void product(int m, int n, const double *A, const double *x, double *y)
{
    for (int i = 0; i < m; i++) {
        double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
        for (int j = 0; j + 3 < n; j += 4) {
            s0 += A[(size_t)i * n + j] * x[j];
            s1 += A[(size_t)i * n + j + 1] * x[j + 1];
            s2 += A[(size_t)i * n + j + 2] * x[j + 2];
            s3 += A[(size_t)i * n + j + 3] * x[j + 3];
        }
        y[i] = s0 + s1 + s2 + s3;
    }
}

#include "planted/entry_points.h"
