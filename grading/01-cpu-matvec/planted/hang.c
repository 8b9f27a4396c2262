/* expect: timeout in rows
 * threats: 17 (rows of ../shared/GRADER_THREATS.md)
 * Never returns (stage 1; the others write nothing and fail at once: a hang costs the plant its
 * whole time limit in each stage it is in). */
#include <stddef.h>
#include "matvec.h"

void matvec_rows(int m, int n, const double *const *A, const double *x, double *y)
{
    (void)A, (void)x, (void)y, (void)n, (void)m;
    for (volatile int spin = 1; spin;) {
    }
}

void matvec_contiguous(int m, int n, const double *A, const double *x, double *y) { (void)m, (void)n, (void)A, (void)x, (void)y; }
void matvec_unrolled(int m, int n, const double *A, const double *x, double *y) { (void)m, (void)n, (void)A, (void)x, (void)y; }
