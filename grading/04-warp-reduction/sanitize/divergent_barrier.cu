/* sanitize: synccheck in strided
 * The barrier of a tree reduction moved inside the test that picks the working threads: from the
 * first step on, only some threads of the block reach it. */
#include "reduce.h"
#include "planted/common_kernels.h"
#include "sanitize/passes.h"

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

PASSES(divergent_sum, divergent_tree)
#define sum divergent_sum
#include "planted/entry_points.h"
