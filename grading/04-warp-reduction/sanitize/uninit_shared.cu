/* sanitize: racecheck|initcheck in sequential
 * A tree reduction whose loads skip the slots past n instead of zeroing them: the last block adds
 * shared values no thread wrote (whatever an earlier kernel left there). */
#include "reduce.h"
#include "planted/common_kernels.h"
#include "sanitize/passes.h"

static __global__ void unfilled_tree(int n, const float *in, float *out)
{
    __shared__ float s[256];
    unsigned tid = threadIdx.x, i = blockIdx.x * 256 + tid;
    if (i < (unsigned)n) s[tid] = in[i]; /* nothing stored past n */
    __syncthreads();
    for (unsigned stride = 128; stride > 0; stride /= 2) {
        if (tid < stride) s[tid] += s[tid + stride]; /* the bug: reads slots past n, never written */
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = s[0];
}

PASSES(unfilled_sum, unfilled_tree)
#define sum unfilled_sum
#include "planted/entry_points.h"
