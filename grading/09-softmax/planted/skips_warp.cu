/* expect: technique in warp,online,registers
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * Stages skipped: every stage runs stage 1's code, a block of 256 threads per row reading it three
 * times, each reduction by warp shuffles and then across the block's warps through shared memory.
 * Right at every shape, and fast enough for `warp` at the timed shape on an H100 (the reference's
 * block per row reads 58% of the ceiling, `warp` asks for 21%). It has shuffles, but each of its
 * reductions waits at block barriers, which a warp per row does without. */
#include "softmax.h"
#include "planted/common_kernels.h"

static __device__ float block_max(float v, float *part)
{
    v = plant_max(v);
    if (threadIdx.x % 32 == 0) part[threadIdx.x / 32] = v;
    __syncthreads();
    v = plant_max(threadIdx.x % 32 < 8 ? part[threadIdx.x % 32] : -FLT_MAX);
    __syncthreads();
    return v;
}

static __device__ float block_sum(float v, float *part)
{
    v = plant_sum(v);
    if (threadIdx.x % 32 == 0) part[threadIdx.x / 32] = v;
    __syncthreads();
    v = plant_sum(threadIdx.x % 32 < 8 ? part[threadIdx.x % 32] : 0.0f);
    __syncthreads();
    return v;
}

static __global__ void block_rows(int n, const float *in, float *out)
{
    __shared__ float part[8];
    const float *x = in + (size_t)blockIdx.x * n;
    float mx = -FLT_MAX, s = 0;
    for (int j = threadIdx.x; j < n; j += 256) mx = fmaxf(mx, x[j]);
    mx = block_max(mx, part);
    for (int j = threadIdx.x; j < n; j += 256) s += __expf(x[j] - mx);
    float r = 1.0f / block_sum(s, part);
    for (int j = threadIdx.x; j < n; j += 256) out[(size_t)blockIdx.x * n + j] = __expf(x[j] - mx) * r;
}

static void sm(int m, int n, const float *in, float *out)
{
    if (m > 0) block_rows<<<m, 256>>>(n, in, out);
}

#include "planted/entry_points.h"
