/* expect: technique in online,registers
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * Stages skipped: every stage runs stage 2's code, a warp per row reading it three times (for the
 * maximum, for the sum, to write). Right at every shape, and where the row is served from L2 its
 * second and third reads cost little, so speed alone may not tell; `online` folds the first two
 * reads into one and `registers` reads the row once, which the passes in its PTX show. */
#include "softmax.h"
#include "planted/common_kernels.h"

static __global__ void three_reads(int m, int n, const float *in, float *out)
{
    int row = (int)((blockIdx.x * (size_t)blockDim.x + threadIdx.x) / 32), lane = threadIdx.x % 32;
    if (row >= m) return;
    const float *x = in + (size_t)row * n;
    float mx = -FLT_MAX, s = 0;
    for (int j = lane; j < n; j += 32) mx = fmaxf(mx, x[j]);
    mx = plant_max(mx);
    for (int j = lane; j < n; j += 32) s += __expf(x[j] - mx);
    float r = 1.0f / plant_sum(s);
    for (int j = lane; j < n; j += 32) out[(size_t)row * n + j] = __expf(x[j] - mx) * r;
}

static void sm(int m, int n, const float *in, float *out) { three_reads<<<plant_blocks(m), 256>>>(m, n, in, out); }

#include "planted/entry_points.h"
