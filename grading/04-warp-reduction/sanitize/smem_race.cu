/* sanitize: racecheck in interleaved
 * A tree reduction without the barrier between the loads into shared memory and the first step
 * that reads them: a thread may add a neighbour's slot before the neighbour has stored it. The
 * sums may well come out right (the warps usually run in step); the race is still there. */
#include "reduce.h"
#include "planted/common_kernels.h"
#include "sanitize/passes.h"

static __global__ void racy_tree(int n, const float *in, float *out)
{
    __shared__ float s[256];
    unsigned tid = threadIdx.x, i = blockIdx.x * 256 + tid;
    s[tid] = i < (unsigned)n ? in[i] : 0.0f;
    for (unsigned stride = 128; stride > 0; stride /= 2) {
        if (tid < stride) s[tid] += s[tid + stride]; /* the bug: no __syncthreads() before the first step */
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = s[0];
}

PASSES(racy_sum, racy_tree)
#define sum racy_sum
#include "planted/entry_points.h"
