/* expect: wrong
 * threats: 25 (rows of ../shared/GRADER_THREATS.md)
 * Returns C as it came: the answer whenever A B is zero. The inputs are random in [-1, 1), so
 * A B is far from zero (about sqrt(k / 9) in size) and the unchanged C fails every case. */
#include "gemm.h"

static void mm(int m, int n, int k, const double *A, const double *B, double *C)
{
    (void)m, (void)n, (void)k, (void)A, (void)B, (void)C;
}

#include "planted/entry_points.h"
