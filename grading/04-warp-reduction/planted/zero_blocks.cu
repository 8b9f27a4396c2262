/* expect: crash in vectorized
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * diagnosis: a grid of 0 blocks
 * A textbook trap (item 5 of the study of what a pass certifies): a vectorised sum launched, as
 * the "CUDA Pro Tip" on vectorised loads sizes its grid, with one thread a float4, n / 4 / 256
 * blocks rounded up, at most 1024. At n < 4 that is 0 blocks: the launch cannot start and says
 * so only to cudaGetLastError(); nothing is summed. Right at every n >= 4. The grader must name the
 * launch that could not start, in the student's function, not a line of its own. */
#include "reduce.h"
#include <cuda_runtime.h>

#define PLANT_STAGES "vectorized"

static __device__ float block_total(float v)
{
    __shared__ float per_warp[32];
    for (int d = 16; d > 0; d /= 2) v += __shfl_xor_sync(0xffffffffu, v, d);
    if (threadIdx.x % 32 == 0) per_warp[threadIdx.x / 32] = v;
    __syncthreads();
    v = threadIdx.x < blockDim.x / 32 ? per_warp[threadIdx.x] : 0.0f;
    if (threadIdx.x < 32)
        for (int d = 16; d > 0; d /= 2) v += __shfl_xor_sync(0xffffffffu, v, d);
    return v;
}

static __global__ void quads(const float *in, int n, float *partial)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x, stride = gridDim.x * blockDim.x;
    float v = 0.0f;
    for (int q = t; q < n / 4; q += stride) {
        float4 f = reinterpret_cast<const float4 *>(in)[q];
        v += (f.x + f.y) + (f.z + f.w);
    }
    if (t < n % 4) v += in[n / 4 * 4 + t];
    v = block_total(v);
    if (threadIdx.x == 0) partial[blockIdx.x] = v;
}

static __global__ void finish(const float *partial, int k, float *out)
{
    float v = 0.0f;
    for (int i = threadIdx.x; i < k; i += blockDim.x) v += partial[i];
    v = block_total(v);
    if (threadIdx.x == 0) *out = v;
}

static void add(int, const float *, const float *, float *) {}
static void sum(int n, const float *in, float *out, float *work)
{
    int blocks = (n / 4 + 255) / 256;
    if (blocks > 1024) blocks = 1024;
    quads<<<blocks, 256>>>(in, n, work); /* 0 blocks at n < 4 */
    finish<<<1, 1024>>>(work, blocks, out);
}
static void mv(int, int, const double *, const double *, double *) {}

#include "planted/entry_points.h"
