/* expect: too-slow in unrolled
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * Correct but recomputes each row six times (stage 3; the others write nothing and fail at once). */
#include <stddef.h>
#include "matvec.h"

void matvec_unrolled(int m, int n, const double *A, const double *x, double *y)
{
    for (int rep = 0; rep < 6; rep++)
        for (int i = 0; i < m; i++) {
            double s = 0;
            for (int j = 0; j < n; j++) s += A[(size_t)i * n + j] * x[j];
            y[i] = s;
        }
}

void matvec_rows(int m, int n, const double *const *A, const double *x, double *y) { (void)m, (void)n, (void)A, (void)x, (void)y; }
void matvec_contiguous(int m, int n, const double *A, const double *x, double *y) { (void)m, (void)n, (void)A, (void)x, (void)y; }
