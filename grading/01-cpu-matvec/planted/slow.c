/* expect: too-slow in unrolled
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * Correct, with the stage's technique (two sums a row, so it is timed), but recomputes each row
 * six times (stage 3; the others write nothing and fail at once). */
#include <stddef.h>
#include "matvec.h"

void matvec_unrolled(int m, int n, const double *A, const double *x, double *y)
{
    for (int rep = 0; rep < 6; rep++)
        for (int i = 0; i < m; i++) {
            double s0 = 0, s1 = 0;
            int j = 0;
            for (; j + 1 < n; j += 2) s0 += A[(size_t)i * n + j] * x[j], s1 += A[(size_t)i * n + j + 1] * x[j + 1];
            if (j < n) s0 += A[(size_t)i * n + j] * x[j];
            y[i] = s0 + s1;
        }
}

void matvec_rows(int m, int n, const double *const *A, const double *x, double *y) { (void)m, (void)n, (void)A, (void)x, (void)y; }
void matvec_contiguous(int m, int n, const double *A, const double *x, double *y) { (void)m, (void)n, (void)A, (void)x, (void)y; }
