/* expect: wrong
 * threats: 4, 26 (rows of ../shared/GRADER_THREATS.md)
 * Caches y by the address of A and returns it on later calls (x changes between timed calls). */
#include <stddef.h>
#include "matvec.h"

static void product(int m, int n, const double *A, const double *x, double *y)
{
    static const double *last_A;
    static double saved[1 << 20];
    if (A == last_A && m <= (1 << 20)) {
        for (int i = 0; i < m; i++) y[i] = saved[i];
        return;
    }
    for (int i = 0; i < m; i++) {
        double s = 0;
        for (int j = 0; j < n; j++) s += A[(size_t)i * n + j] * x[j];
        y[i] = s;
    }
    last_A = A;
    for (int i = 0; i < m && i < (1 << 20); i++) saved[i] = y[i];
}

#include "planted/entry_points.h"
