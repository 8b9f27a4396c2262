/* expect: wrong
 * threats: 3 (rows of ../shared/GRADER_THREATS.md)
 * Computes y into a scratch buffer, frees it, and on a later call of the same shape mallocs it
 * again and copies it out without recomputing, hoping the recycled memory still holds the
 * product. The same address often comes back; the inputs, though, are new. */
#include <stdlib.h>
#include <string.h>
#include "matvec.h"

static void product(int m, int n, const double *A, const double *x, double *y)
{
    static int last_m, last_n;
    double *p = malloc((size_t)m * sizeof *p + 1);
    if (!(m == last_m && n == last_n)) {
        for (int i = 0; i < m; i++) {
            double s = 0;
            for (int j = 0; j < n; j++) s += A[(size_t)i * n + j] * x[j];
            p[i] = s;
        }
        last_m = m, last_n = n;
    }
    memcpy(y, p, (size_t)m * sizeof *p);
    free(p);
}

#include "planted/entry_points.h"
