/* textbook: warp
 * warp_per_block.cu's kernel (a warp per row, reductions by __shfl_xor_sync, three reads, expf
 * and a division) launched in blocks of 256 threads, 8 rows a block, instead of a block of 32 a
 * row: whether the launch shape alone is what holds that file back. Graded on `warp` only. */
#include "softmax.h"

#include <cfloat>
#include <cuda_runtime.h>

static __global__ void warp_per_row(int m, int n, const float *in, float *out)
{
    int row = (int)((blockIdx.x * (size_t)blockDim.x + threadIdx.x) / 32), lane = threadIdx.x % 32;
    if (row >= m) return;
    const float *x = in + (size_t)row * n;
    float *y = out + (size_t)row * n;
    float mx = -FLT_MAX;
    for (int j = lane; j < n; j += 32) mx = fmaxf(mx, x[j]);
    for (int d = 16; d > 0; d /= 2) mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, d));
    float sum = 0.0f;
    for (int j = lane; j < n; j += 32) sum += expf(x[j] - mx);
    for (int d = 16; d > 0; d /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, d);
    for (int j = lane; j < n; j += 32) y[j] = expf(x[j] - mx) / sum;
}

extern "C" void softmax_three_pass(int, int, const float *, float *) {}
extern "C" void softmax_warp(int m, int n, const float *in, float *out)
{
    if (m > 0) warp_per_row<<<(unsigned)(((size_t)m * 32 + 255) / 256), 256>>>(m, n, in, out);
}
extern "C" void softmax_online(int, int, const float *, float *) {}
extern "C" void softmax_registers(int, int, const float *, float *) {}
