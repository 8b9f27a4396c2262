/* expect: wrong
 * threats: 21 (rows of ../shared/GRADER_THREATS.md)
 * Online softmax that forgets the rescaling: when a larger value arrives, the running sum keeps
 * terms taken against the old maximum. Right when each lane meets its largest value first (as in
 * a row of one warp's width); wrong for longer rows. */
#include "softmax.h"
#include "planted/common_kernels.h"

static __global__ void online(int m, int n, const float *in, float *out)
{
    int row = (int)((blockIdx.x * (size_t)blockDim.x + threadIdx.x) / 32), lane = threadIdx.x % 32;
    if (row >= m) return;
    const float *x = in + (size_t)row * n;
    float mx = -FLT_MAX, s = 0;
    for (int j = lane; j < n; j += 32) {
        if (x[j] > mx) mx = x[j]; /* s is not multiplied by expf(old - new) */
        s += expf(x[j] - mx);
    }
    float top = plant_max(mx);
    s = plant_sum(s * expf(mx - top));
    for (int j = lane; j < n; j += 32) out[(size_t)row * n + j] = expf(x[j] - top) / s;
}

static void sm(int m, int n, const float *in, float *out) { online<<<plant_blocks(m), 256>>>(m, n, in, out); }

#include "planted/entry_points.h"
