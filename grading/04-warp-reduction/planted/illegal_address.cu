/* expect: crash
 * Reads through a null pointer on the device: the launch fails at the next synchronisation with
 * an illegal address, and the runner stops with the CUDA error. */
#include "reduce.h"
#include "planted/common_kernels.h"

static __global__ void bad_kernel(const float *in, float *out) { *out = in[threadIdx.x]; }

static void sum(int n, const float *in, float *out, float *work)
{
    (void)n, (void)in, (void)work;
    bad_kernel<<<1, 32>>>(nullptr, out);
}

#include "planted/entry_points.h"
