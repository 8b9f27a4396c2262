/* common_kernels.h - a correct warp-per-row softmax, and its parts, for plants that differ from it in
 * one thing. */
#include <cfloat>

static __device__ float plant_max(float v)
{
    for (int d = 16; d > 0; d /= 2) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, d));
    return v;
}

static __device__ float plant_sum(float v)
{
    for (int d = 16; d > 0; d /= 2) v += __shfl_xor_sync(0xffffffffu, v, d);
    return v;
}

static unsigned plant_blocks(int m) { return (unsigned)(((size_t)m * 32 + 255) / 256); }

/* A warp per row in blocks of 256 threads: the row's maximum, the sum of exp(x - max), then each
 * output, three reads of the row (stage 2's code). */
static __global__ void plant_rows(int m, int n, const float *in, float *out)
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
