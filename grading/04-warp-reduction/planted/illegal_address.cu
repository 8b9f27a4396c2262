/* expect: crash
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * Every stage reads through a null pointer on the device: the launch fails at the next
 * synchronisation with an illegal address, and the runner stops with the CUDA error. */
#include "reduce.h"

static __global__ void bad_kernel(const float *in, float *out) { *out = in[threadIdx.x]; }

static void sum(int n, const float *in, float *out, float *work)
{
    (void)n, (void)in, (void)work;
    bad_kernel<<<1, 32>>>(nullptr, out);
}
static void add(int n, const float *a, const float *b, float *c)
{
    (void)n, (void)a, (void)b;
    bad_kernel<<<1, 32>>>(nullptr, c);
}
static void mv(int m, int n, const double *A, const double *x, double *y)
{
    (void)m, (void)n, (void)A, (void)x;
    bad_kernel<<<1, 32>>>(nullptr, (float *)y);
}

#include "planted/entry_points.h"
