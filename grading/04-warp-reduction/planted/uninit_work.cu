/* expect: wrong in interleaved,strided,sequential,shuffle,vectorized
 * threats: 28 (rows of ../shared/GRADER_THREATS.md)
 * Adds each block's partial into work[] with atomicAdd, trusting the scratch space to start at
 * zero (fresh cudaMalloc'd memory often is). The grader fills `work` with NaN before every call,
 * so the sum is NaN. (Only the sums have scratch space.) */
#define PLANT_STAGES "interleaved,strided,sequential,shuffle,vectorized"
#include "reduce.h"
#include "planted/common_kernels.h"

/* Block b adds its 256 inputs into work[b % 1024]; then one block sums work[0 .. 1023]. */
static __global__ void into_work(int n, const float *in, float *work)
{
    __shared__ float s[256];
    int i = blockIdx.x * 256 + threadIdx.x;
    s[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (int stride = 128; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(&work[blockIdx.x % 1024], s[0]); /* work[] never zeroed */
}

static void sum(int n, const float *in, float *out, float *work)
{
    into_work<<<(n + 255) / 256, 256>>>(n, in, work);
    partial_kernel<<<1, 256>>>(1024, work, out);
}

#include "planted/entry_points.h"
