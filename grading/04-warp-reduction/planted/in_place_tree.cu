/* expect: input-modified
 * threats: 15 (rows of ../shared/GRADER_THREATS.md)
 * The textbook's first reduction, in place: a pairwise tree in global memory that adds into the
 * input array itself, one launch per level (the right sum, in[0] at the end). Vector add keeps
 * its result in a as well, and matvec scales x. Inputs are compared after every call. */
#include "reduce.h"
#define add honest_add
#define mv honest_mv
#include "planted/common_kernels.h"
#undef add
#undef mv

#include "planted/in_place.h"

static __global__ void copy_into(int n, const float *from, float *to)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) to[i] = from[i];
}
static __global__ void halve(int n, double *x)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 0.5;
}

static void add(int n, const float *a, const float *b, float *c)
{
    honest_add(n, a, b, c);
    copy_into<<<(n + 255) / 256, 256>>>(n, c, (float *)a); /* "a is not needed any more" */
}
static void sum(int n, const float *in, float *out, float *work)
{
    (void)work;
    in_place_sum(n, in, out);
}
static void mv(int m, int n, const double *A, const double *x, double *y)
{
    honest_mv(m, n, A, x, y);
    halve<<<(n + 255) / 256, 256>>>(n, (double *)x);
}

#include "planted/entry_points.h"
