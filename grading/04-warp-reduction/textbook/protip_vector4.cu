/* textbook: vectorized
 * The `vectorized` sum as Luitjens teaches it: "CUDA Pro Tip: Increase Performance with
 * Vectorized Memory Access" (NVIDIA Developer Blog, 2013: reinterpret_cast to int4, N/4 vector
 * loads in a grid-stride loop, the N % 4 tail in scalars) applied to the reduction of "Faster
 * Parallel Reductions on Kepler" (2014), as the post's own code writes it
 * (device_reduce_stable_kernel_vector4 in NVIDIA-developer-blog/code-samples,
 * posts/parallel_reduction_with_shfl): each thread adds the float4s i = idx, idx + stride, ...
 * below N/4, thread idx < N % 4 adds the scalar in[N/4*4 + idx], then blockReduceSum (shuffles,
 * a 32-slot shared array); launched with 512 threads and min((N/4 + 511) / 512, 1024) blocks,
 * then deviceReduceKernel<<<1, 1024>>> over the partials (textbook/kepler_reduce.h). Added for
 * the lab's interface: float/float4 for int/int4, __shfl_down_sync(0xffffffff, ...), the partials
 * in `work`, static functions; and at least one block: the post's grid is 0 blocks for N < 4 (an
 * invalid launch that leaves the tail unsummed), and the lab's n = 1 is a case. Graded on
 * `vectorized` only (the other stages launch nothing): the study of what a pass certifies grades
 * it, and a technique-correct textbook kernel must pass. */
#include "reduce.h"
#include "textbook/kepler_reduce.h"

#define PLANT_STAGES "vectorized"

static __global__ void device_reduce_stable_kernel_vector4(const float *in, float *out, int N)
{
    float sum = 0;
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    for (int i = idx; i < N / 4; i += blockDim.x * gridDim.x) {
        float4 val = reinterpret_cast<const float4 *>(in)[i];
        sum += (val.x + val.y) + (val.z + val.w);
    }
    int i = idx + N / 4 * 4;
    if (i < N) sum += in[i];

    sum = blockReduceSum(sum);
    if (threadIdx.x == 0) out[blockIdx.x] = sum;
}

static void device_reduce_stable_vector4(const float *in, float *out, float *work, int N)
{
    int threads = 512;
    int blocks = min((N / 4 + threads - 1) / threads, 1024);
    if (blocks < 1) blocks = 1; /* the lab's n < 4 (the post's grid would be empty) */

    device_reduce_stable_kernel_vector4<<<blocks, threads>>>(in, work, N);
    deviceReduceKernel<<<1, 1024>>>(work, out, blocks);
}

static void add(int, const float *, const float *, float *) {}
static void sum(int n, const float *in, float *out, float *work) { device_reduce_stable_vector4(in, out, work, n); }
static void mv(int, int, const double *, const double *, double *) {}

#include "planted/entry_points.h"
