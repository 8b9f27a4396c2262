/* expect: out-of-bounds
 * threats: 16 (rows of ../shared/GRADER_THREATS.md)
 * A warp per row with no test that the row exists: the last block's spare warps (m not a multiple
 * of 8) write rows past the end of out. The device guard zones the grader puts around every
 * buffer show it. */
#include "softmax.h"
#include "planted/common_kernels.h"

static __global__ void unchecked(int n, const float *in, float *out)
{
    int row = (int)((blockIdx.x * (size_t)blockDim.x + threadIdx.x) / 32), lane = threadIdx.x % 32;
    const float *x = in + (size_t)row * n;
    float mx = -FLT_MAX;
    for (int j = lane; j < n; j += 32) mx = fmaxf(mx, x[j]);
    mx = plant_max(mx);
    float s = 0;
    for (int j = lane; j < n; j += 32) s += expf(x[j] - mx);
    s = plant_sum(s);
    for (int j = lane; j < n; j += 32) out[(size_t)row * n + j] = expf(x[j] - mx) / s;
}

static void sm(int m, int n, const float *in, float *out) { unchecked<<<plant_blocks(m), 256>>>(n, in, out); }

#include "planted/entry_points.h"
