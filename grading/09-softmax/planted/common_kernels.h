/* common_kernels.h - a correct warp-per-row softmax for plants that differ from it in one thing. */
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
