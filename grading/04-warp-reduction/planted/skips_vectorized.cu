/* expect: technique in vectorized
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * A stage skipped: `vectorized` runs stage 5's code: a grid-stride sum of one float a load, warp
 * shuffles, the warps' sums through shared memory, a partial a block, then one block over the
 * partials. Right at every size; it has no float4 (or float2) load, which is what the stage
 * teaches. */
#include "reduce.h"
#define add honest_add
#define mv honest_mv
#include "planted/common_kernels.h"
#undef add
#undef mv

#define PLANT_STAGES "vectorized"

static __global__ void warp_sums(int n, const float *in, float *partial)
{
    __shared__ float warps[8];
    float v = 0.0f;
    for (long i = blockIdx.x * 256L + threadIdx.x; i < n; i += 256L * gridDim.x) v += in[i];
    for (int d = 16; d > 0; d /= 2) v += __shfl_down_sync(0xffffffffu, v, d);
    if (threadIdx.x % 32 == 0) warps[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x >= 32) return;
    v = threadIdx.x < 8 ? warps[threadIdx.x] : 0.0f;
    for (int d = 4; d > 0; d /= 2) v += __shfl_down_sync(0xffffffffu, v, d);
    if (threadIdx.x == 0) partial[blockIdx.x] = v;
}

static void sum(int n, const float *in, float *out, float *work)
{
    warp_sums<<<1024, 256>>>(n, in, work);
    warp_sums<<<1, 256>>>(1024, work, out);
}
static void add(int n, const float *a, const float *b, float *c) { honest_add(n, a, b, c); }
static void mv(int m, int n, const double *A, const double *x, double *y) { honest_mv(m, n, A, x, y); }

#include "planted/entry_points.h"
