/* reference.c - see reference.h. */
#include "reference.h"

#include <float.h>
#include <math.h>
#include <stddef.h>

void reference_matvec(int m, int n, const double *A, const double *x, double *ref, double *bound)
{
    for (int i = 0; i < m; i++) {
        const double *a = A + (size_t)i * n;
        long double acc = 0, mag = 0;
        for (int j = 0; j < n; j++) {
            acc += (long double)a[j] * x[j];
            mag += fabsl((long double)a[j] * x[j]);
        }
        ref[i] = (double)acc;
        bound[i] = (double)(n * (long double)DBL_EPSILON * mag);
    }
}
