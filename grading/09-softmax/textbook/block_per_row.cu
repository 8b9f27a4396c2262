/* textbook: three_pass
 * A block per row as the softmax worklogs first write it: 256 threads stride along the row for
 * its maximum, the block's 256 partial maxima halved in shared memory (a __syncthreads() a step),
 * the same for the sum of expf(x - max), then a third read to write expf(x - max) / sum. expf
 * and a division, as written in the worklogs; no shuffles. Graded on `three_pass` only (the other
 * stages launch nothing): the study of what a pass certifies grades it, and a technique-correct
 * textbook kernel must pass. */
#include "softmax.h"

#include <cfloat>
#include <cuda_runtime.h>

#define THREADS 256

static __global__ void block_per_row(int n, const float *in, float *out)
{
    __shared__ float red[THREADS];
    const float *x = in + (size_t)blockIdx.x * n;
    float *y = out + (size_t)blockIdx.x * n;
    int tid = threadIdx.x;
    float m = -FLT_MAX;
    for (int j = tid; j < n; j += blockDim.x) m = fmaxf(m, x[j]);
    red[tid] = m;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) red[tid] = fmaxf(red[tid], red[tid + s]);
        __syncthreads();
    }
    m = red[0];
    __syncthreads();
    float sum = 0.0f;
    for (int j = tid; j < n; j += blockDim.x) sum += expf(x[j] - m);
    red[tid] = sum;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) red[tid] += red[tid + s];
        __syncthreads();
    }
    sum = red[0];
    for (int j = tid; j < n; j += blockDim.x) y[j] = expf(x[j] - m) / sum;
}

extern "C" void softmax_three_pass(int m, int n, const float *in, float *out)
{
    if (m > 0) block_per_row<<<m, THREADS>>>(n, in, out);
}
extern "C" void softmax_warp(int, int, const float *, float *) {}
extern "C" void softmax_online(int, int, const float *, float *) {}
extern "C" void softmax_registers(int, int, const float *, float *) {}
