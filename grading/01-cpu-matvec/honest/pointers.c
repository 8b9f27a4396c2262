/* honest: pointer-walking loops, and two rows at a time sharing each load of x.
 * A correct submission written differently from the reference: the grader must pass it. */
#include <stddef.h>

#include "matvec.h"

static double dot(const double *a, const double *x, int n)
{
    double s = 0;
    for (const double *end = a + n; a < end;) s += *a++ * *x++;
    return s;
}

void matvec_rows(int m, int n, const double *const *A, const double *x, double *y)
{
    for (int i = 0; i < m; i++) y[i] = dot(A[i], x, n);
}

void matvec_contiguous(int m, int n, const double *A, const double *x, double *y)
{
    for (int i = 0; i < m; i++) y[i] = dot(A + (size_t)i * n, x, n);
}

/* Rows i and i + 1 together, four partial sums each. */
void matvec_unrolled(int m, int n, const double *A, const double *x, double *y)
{
    int i = 0;
    for (; i + 2 <= m; i += 2) {
        const double *a = A + (size_t)i * n, *b = a + n;
        double a0 = 0, a1 = 0, a2 = 0, a3 = 0, b0 = 0, b1 = 0, b2 = 0, b3 = 0;
        int j = 0;
        for (; j + 4 <= n; j += 4) {
            a0 += a[j] * x[j], a1 += a[j + 1] * x[j + 1], a2 += a[j + 2] * x[j + 2], a3 += a[j + 3] * x[j + 3];
            b0 += b[j] * x[j], b1 += b[j + 1] * x[j + 1], b2 += b[j + 2] * x[j + 2], b3 += b[j + 3] * x[j + 3];
        }
        for (; j < n; j++) a0 += a[j] * x[j], b0 += b[j] * x[j];
        y[i] = (a0 + a1) + (a2 + a3);
        y[i + 1] = (b0 + b1) + (b2 + b3);
    }
    if (i < m) y[i] = dot(A + (size_t)i * n, x, n);
}
