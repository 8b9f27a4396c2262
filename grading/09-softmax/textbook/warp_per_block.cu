/* textbook: warp
 * A warp per row as the softmax worklogs write it: a block of 32 threads for each row, the
 * maximum and the sum reduced by __shfl_xor_sync (every lane gets the result), three reads of
 * the row, expf and a division. Graded on `warp` only (the other stages launch nothing): the
 * study of what a pass certifies grades it, and a technique-correct textbook kernel must pass. */
#include "softmax.h"

#include <cfloat>
#include <cuda_runtime.h>

static __global__ void warp_per_row(int n, const float *in, float *out)
{
    const float *x = in + (size_t)blockIdx.x * n;
    float *y = out + (size_t)blockIdx.x * n;
    int lane = threadIdx.x;
    float m = -FLT_MAX;
    for (int j = lane; j < n; j += 32) m = fmaxf(m, x[j]);
    for (int d = 16; d > 0; d /= 2) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, d));
    float sum = 0.0f;
    for (int j = lane; j < n; j += 32) sum += expf(x[j] - m);
    for (int d = 16; d > 0; d /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, d);
    for (int j = lane; j < n; j += 32) y[j] = expf(x[j] - m) / sum;
}

extern "C" void softmax_three_pass(int, int, const float *, float *) {}
extern "C" void softmax_warp(int m, int n, const float *in, float *out)
{
    if (m > 0) warp_per_row<<<m, 32>>>(n, in, out);
}
extern "C" void softmax_online(int, int, const float *, float *) {}
extern "C" void softmax_registers(int, int, const float *, float *) {}
