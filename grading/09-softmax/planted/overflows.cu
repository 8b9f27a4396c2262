/* expect: wrong
 * threats: 21 (rows of ../shared/GRADER_THREATS.md)
 * diagnosis: NaN or Inf
 * The textbook formula as written, exp(x) / sum exp(x), without subtracting the row's maximum:
 * right while every input is below 88.7, but the inputs go to 90, where expf overflows to
 * infinity and an output becomes inf / inf. */
#include "softmax.h"
#include "planted/common_kernels.h"

static __global__ void naive(int m, int n, const float *in, float *out)
{
    int row = (int)((blockIdx.x * (size_t)blockDim.x + threadIdx.x) / 32), lane = threadIdx.x % 32;
    if (row >= m) return;
    const float *x = in + (size_t)row * n;
    float s = 0;
    for (int j = lane; j < n; j += 32) s += expf(x[j]);
    s = plant_sum(s);
    for (int j = lane; j < n; j += 32) out[(size_t)row * n + j] = expf(x[j]) / s;
}

static void sm(int m, int n, const float *in, float *out) { naive<<<plant_blocks(m), 256>>>(m, n, in, out); }

#include "planted/entry_points.h"
