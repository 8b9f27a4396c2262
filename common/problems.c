/* problems.c - see problems.h. */
#include "problems.h"

#include <float.h>
#include <math.h>
#include <stddef.h>

void matvec_layout(lab_shape s, lab_buf *b)
{
    b[MATVEC_A] = (lab_buf){"A", ROLE_IN, F64, (size_t)s.m, (size_t)s.n};
    b[MATVEC_X] = (lab_buf){"x", ROLE_IN, F64, 1, (size_t)s.n};
    b[MATVEC_Y] = (lab_buf){"y", ROLE_OUT, F64, 1, (size_t)s.m};
}

double matvec_flops(lab_shape s) { return 2.0 * s.m * s.n; }

double matvec_bytes(lab_shape s) { return 8.0 * ((double)s.m * s.n + s.n + s.m); }

void matvec_reference(lab_shape s, void *const *buf, double *ref, double *bound)
{
    const double *A = buf[MATVEC_A], *x = buf[MATVEC_X];
    for (int i = 0; i < s.m; i++) {
        const double *a = A + (size_t)i * s.n;
        long double acc = 0, mag = 0;
        for (int j = 0; j < s.n; j++) {
            acc += (long double)a[j] * x[j];
            mag += fabsl((long double)a[j] * x[j]);
        }
        ref[i] = (double)acc;
        bound[i] = (double)(s.n * (long double)DBL_EPSILON * mag);
    }
}
