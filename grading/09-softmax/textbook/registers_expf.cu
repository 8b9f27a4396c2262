/* textbook: registers
 * A row in registers as the worklogs write it (OneFlow's and similar warp softmax kernels): a
 * warp per row in blocks of 256 threads, each lane holding COLS / 32 values of a row of up to
 * COLS (a template, dispatched on n; longer rows read twice, online), the maximum and the sum by
 * __shfl_xor_sync, one read and one write. expf and a division, as written there. Graded on
 * `registers` only. */
#include "softmax.h"

#include <cfloat>
#include <cuda_runtime.h>

static __device__ float warp_max(float v)
{
    for (int d = 16; d > 0; d /= 2) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, d));
    return v;
}

static __device__ float warp_sum(float v)
{
    for (int d = 16; d > 0; d /= 2) v += __shfl_xor_sync(0xffffffffu, v, d);
    return v;
}

template <int COLS> static __global__ void rows_in_registers(int m, int n, const float *in, float *out)
{
    constexpr int PER = COLS / 32;
    int row = (int)((blockIdx.x * (size_t)blockDim.x + threadIdx.x) / 32), lane = threadIdx.x % 32;
    if (row >= m) return;
    const float *x = in + (size_t)row * n;
    float *y = out + (size_t)row * n;
    float buf[PER], mx = -FLT_MAX;
#pragma unroll
    for (int i = 0; i < PER; i++) {
        int j = i * 32 + lane;
        buf[i] = j < n ? x[j] : -FLT_MAX;
        mx = fmaxf(mx, buf[i]);
    }
    mx = warp_max(mx);
    float sum = 0.0f;
#pragma unroll
    for (int i = 0; i < PER; i++) {
        buf[i] = i * 32 + lane < n ? expf(buf[i] - mx) : 0.0f;
        sum += buf[i];
    }
    sum = warp_sum(sum);
#pragma unroll
    for (int i = 0; i < PER; i++)
        if (i * 32 + lane < n) y[i * 32 + lane] = buf[i] / sum;
}

static __global__ void online_rows(int m, int n, const float *in, float *out)
{
    int row = (int)((blockIdx.x * (size_t)blockDim.x + threadIdx.x) / 32), lane = threadIdx.x % 32;
    if (row >= m) return;
    const float *x = in + (size_t)row * n;
    float mx = -FLT_MAX, sum = 0.0f;
    for (int j = lane; j < n; j += 32) {
        float v = x[j], top = fmaxf(mx, v);
        sum = sum * expf(mx - top) + expf(v - top);
        mx = top;
    }
    float top = warp_max(mx);
    sum = warp_sum(sum * expf(mx - top));
    for (int j = lane; j < n; j += 32) out[(size_t)row * n + j] = expf(x[j] - top) / sum;
}

extern "C" void softmax_three_pass(int, int, const float *, float *) {}
extern "C" void softmax_warp(int, int, const float *, float *) {}
extern "C" void softmax_online(int, int, const float *, float *) {}
extern "C" void softmax_registers(int m, int n, const float *in, float *out)
{
    if (m <= 0) return;
    unsigned blocks = (unsigned)(((size_t)m * 32 + 255) / 256);
    if (n <= 32) rows_in_registers<32><<<blocks, 256>>>(m, n, in, out);
    else if (n <= 128) rows_in_registers<128><<<blocks, 256>>>(m, n, in, out);
    else if (n <= 512) rows_in_registers<512><<<blocks, 256>>>(m, n, in, out);
    else if (n <= 1024) rows_in_registers<1024><<<blocks, 256>>>(m, n, in, out);
    else online_rows<<<blocks, 256>>>(m, n, in, out);
}
