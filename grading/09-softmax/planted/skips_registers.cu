/* expect: technique in registers
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * A stage skipped: every stage runs stage 3's code, an online softmax (a running maximum and a
 * rescaled sum in one read, a second read to write). Right at every shape, and near `registers`'
 * speed where the second read comes from L2; `registers` keeps the row in registers and reads it
 * once, which the passes in its PTX show. */
#include "softmax.h"
#include "planted/common_kernels.h"

static __global__ void two_reads(int m, int n, const float *in, float *out)
{
    int row = (int)((blockIdx.x * (size_t)blockDim.x + threadIdx.x) / 32), lane = threadIdx.x % 32;
    if (row >= m) return;
    const float *x = in + (size_t)row * n;
    float mx = -FLT_MAX, s = 0;
    for (int j = lane; j < n; j += 32) {
        float v = x[j], top = fmaxf(mx, v);
        s = s * __expf(mx - top) + __expf(v - top);
        mx = top;
    }
    float top = plant_max(mx);
    s = plant_sum(s * __expf(mx - top));
    float r = 1.0f / s;
    for (int j = lane; j < n; j += 32) out[(size_t)row * n + j] = __expf(x[j] - top) * r;
}

static void sm(int m, int n, const float *in, float *out) { two_reads<<<plant_blocks(m), 256>>>(m, n, in, out); }

#include "planted/entry_points.h"
