/* expect: wrong
 * threats: 23 (rows of ../shared/GRADER_THREATS.md)
 * A warp per row with no loop: lane j handles element j only. Right for rows of up to 32
 * elements (n = 1, 31, 32, 17); past that the rest of each row is neither counted nor written. */
#include "softmax.h"
#include "planted/common_kernels.h"

static __global__ void short_rows(int m, int n, const float *in, float *out)
{
    int row = (int)((blockIdx.x * (size_t)blockDim.x + threadIdx.x) / 32), lane = threadIdx.x % 32;
    if (row >= m) return;
    float v = lane < n ? in[(size_t)row * n + lane] : -FLT_MAX;
    float mx = plant_max(v), e = lane < n ? expf(v - mx) : 0.0f, s = plant_sum(e);
    if (lane < n) out[(size_t)row * n + lane] = e / s;
}

static void sm(int m, int n, const float *in, float *out) { short_rows<<<plant_blocks(m), 256>>>(m, n, in, out); }

#include "planted/entry_points.h"
