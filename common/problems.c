/* problems.c - see problems.h. */
#include "problems.h"

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>

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

void gemm_layout(lab_shape s, lab_buf *b)
{
    b[GEMM_A] = (lab_buf){"A", ROLE_IN, F64, (size_t)s.m, (size_t)s.k};
    b[GEMM_B] = (lab_buf){"B", ROLE_IN, F64, (size_t)s.k, (size_t)s.n};
    b[GEMM_C] = (lab_buf){"C", ROLE_INOUT, F64, (size_t)s.m, (size_t)s.n};
}

double gemm_flops(lab_shape s) { return 2.0 * s.m * s.n * (double)s.k; }

double gemm_bytes(lab_shape s) { return 8.0 * ((double)s.m * s.k + (double)s.k * s.n + 2.0 * s.m * s.n); }

/* Row by row in i-p-j order, so the long double accumulators of one row of C stay in cache. */
void gemm_reference(lab_shape s, void *const *buf, double *ref, double *bound)
{
    const double *A = buf[GEMM_A], *B = buf[GEMM_B], *C = buf[GEMM_C];
    long double *acc = malloc(sizeof *acc * (size_t)s.n * 2), *mag = acc + s.n;
    for (int i = 0; i < s.m; i++) {
        for (int j = 0; j < s.n; j++) {
            acc[j] = C[(size_t)i * s.n + j];
            mag[j] = fabsl(acc[j]);
        }
        for (int p = 0; p < s.k; p++) {
            long double a = A[(size_t)i * s.k + p];
            const double *b = B + (size_t)p * s.n;
            for (int j = 0; j < s.n; j++) {
                acc[j] += a * b[j];
                mag[j] += fabsl(a * b[j]);
            }
        }
        for (int j = 0; j < s.n; j++) {
            ref[(size_t)i * s.n + j] = (double)acc[j];
            bound[(size_t)i * s.n + j] = (double)((s.k + 1) * (long double)DBL_EPSILON * mag[j]);
        }
    }
    free(acc);
}
