/* expect: wrong
 * threats: 20 (rows of ../shared/GRADER_THREATS.md)
 * Right except for one infinity in each output: the last element of c, the sum itself, the first
 * row of y. (Infinity, not NaN, which a never-written output poisoned with NaN would show
 * anyway.) The comparison with the bound fails for infinities and NaN alike. */
#include <math.h>

#include "reduce.h"
#define add honest_add
#define mv honest_mv
#include "planted/common_kernels.h"
#undef add
#undef mv

static __global__ void spoil_f(float *p) { *p = INFINITY; }
static __global__ void spoil_d(double *p) { *p = -INFINITY; }

static void add(int n, const float *a, const float *b, float *c)
{
    honest_add(n, a, b, c);
    spoil_f<<<1, 1>>>(c + n - 1);
}
static void sum(int n, const float *in, float *out, float *work)
{
    honest_sum(n, in, out, work);
    spoil_f<<<1, 1>>>(out);
}
static void mv(int m, int n, const double *A, const double *x, double *y)
{
    honest_mv(m, n, A, x, y);
    spoil_d<<<1, 1>>>(y);
}

#include "planted/entry_points.h"
