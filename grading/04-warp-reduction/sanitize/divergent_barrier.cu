/* sanitize: synccheck in strided
 * The barrier of a tree reduction moved inside the test that picks the working threads: from the
 * first step on, only some threads of the block reach it. */
#include "reduce.h"
#include "planted/common_kernels.h"

static __global__ void divergent_tree(int n, const float *in, float *out)
{
    __shared__ float s[256];
    unsigned tid = threadIdx.x, i = blockIdx.x * 256 + tid;
    s[tid] = i < (unsigned)n ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned stride = 128; stride > 0; stride /= 2) {
        if (tid < stride) {
            s[tid] += s[tid + stride];
            __syncthreads(); /* the bug: a barrier only the threads below `stride` reach */
        }
    }
    if (tid == 0) out[blockIdx.x] = s[0];
}

static void divergent_sum(int n, const float *in, float *out, float *work)
{
    for (;;) {
        int blocks = (n + 255) / 256;
        float *dst = blocks == 1 ? out : work;
        divergent_tree<<<blocks, 256>>>(n, in, dst);
        if (blocks == 1) return;
        in = dst, work = dst + blocks, n = blocks;
    }
}
#define sum divergent_sum
#include "planted/entry_points.h"
