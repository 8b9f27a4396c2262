/* expect: wrong
 * threats: 3, 7 (rows of ../shared/GRADER_THREATS.md)
 * "Returns the stale buffer": computes properly on its first call only. Later, the sum re-runs
 * only the last step over the partial sums it hopes are still in `work`, and vector add and
 * matvec do nothing, hoping last call's result is still in the output. The grader poisons work
 * and the output before every call, so the second call is wrong. */
#include "reduce.h"
#define add honest_add
#define mv honest_mv
#include "planted/common_kernels.h"
#undef add
#undef mv

static void sum(int n, const float *in, float *out, float *work)
{
    static int calls;
    if (calls++ == 0) partial_kernel<<<1024, 256>>>(n, in, work);
    partial_kernel<<<1, 256>>>(1024, work, out);
}
static void add(int n, const float *a, const float *b, float *c)
{
    static int calls;
    if (calls++ == 0) honest_add(n, a, b, c);
}
static void mv(int m, int n, const double *A, const double *x, double *y)
{
    static int calls;
    if (calls++ == 0) honest_mv(m, n, A, x, y);
}

#include "planted/entry_points.h"
