/* expect: audit
 * threats: 13 (rows of ../shared/GRADER_THREATS.md)
 * Includes the reference solution through the lab header folder. */
#include <stddef.h>
#include "matvec.h"
#define matvec_rows ref_rows
#define matvec_contiguous ref_contiguous
#define matvec_unrolled ref_unrolled
#include "../../solutions/01-cpu-matvec/matvec.c"
#undef matvec_rows
#undef matvec_contiguous
#undef matvec_unrolled
static void product(int m, int n, const double *A, const double *x, double *y)
{
    ref_contiguous(m, n, A, x, y);
}

#include "planted/entry_points.h"
