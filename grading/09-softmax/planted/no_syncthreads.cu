/* expect: wrong
 * threats: 22 (rows of ../shared/GRADER_THREATS.md)
 * A block per row whose shared-memory reductions have no __syncthreads(): warp 0 reads the other
 * warps' partial maxima and sums before they are written, and the next reduction overwrites them
 * while others still read. Right only when the warps happen to keep in step. */
#include "softmax.h"
#include "planted/common_kernels.h"

static __global__ void racy(int n, const float *in, float *out)
{
    __shared__ float part[8], shared_max, shared_sum;
    const float *x = in + (size_t)blockIdx.x * n;
    int lane = threadIdx.x % 32, w = threadIdx.x / 32;
    float mx = -FLT_MAX;
    for (int j = threadIdx.x; j < n; j += 256) mx = fmaxf(mx, x[j]);
    mx = plant_max(mx);
    if (lane == 0) part[w] = mx;
    if (w == 0) {
        float v = plant_max(lane < 8 ? part[lane] : -FLT_MAX);
        if (lane == 0) shared_max = v;
    }
    mx = shared_max;
    float s = 0;
    for (int j = threadIdx.x; j < n; j += 256) s += expf(x[j] - mx);
    s = plant_sum(s);
    if (lane == 0) part[w] = s;
    if (w == 0) {
        float v = plant_sum(lane < 8 ? part[lane] : 0.0f);
        if (lane == 0) shared_sum = v;
    }
    s = shared_sum;
    for (int j = threadIdx.x; j < n; j += 256) out[(size_t)blockIdx.x * n + j] = expf(x[j] - mx) / s;
}

static void sm(int m, int n, const float *in, float *out) { racy<<<m, 256>>>(n, in, out); }

#include "planted/entry_points.h"
