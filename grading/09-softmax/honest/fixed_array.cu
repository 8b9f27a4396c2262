/* honest: shapes other than the reference's. Stage 1 uses blocks of 128 threads and the classic
 * shared-memory tree; stage 2 reduces with __shfl_down_sync and broadcasts lane 0's value; stage 3
 * is online softmax with a block per row, the threads' (max, sum) pairs combined in shared memory;
 * stage 4 keeps a fixed array of 32 floats a lane (no template), stage 2's kernel beyond 1024.
 * __expf throughout, and each output multiplied by the reciprocal of its row's sum (written with
 * expf and a division an element, every stage measured 23-28% of the copy bandwidth on an H200).
 * A correct submission written differently from the reference: the grader must pass it. */
#include "softmax.h"

#include <cfloat>

#define T 128

static __device__ float down_max(float v)
{
    for (int d = 16; d > 0; d /= 2) v = fmaxf(v, __shfl_down_sync(0xffffffffu, v, d));
    return __shfl_sync(0xffffffffu, v, 0);
}

static __device__ float down_sum(float v)
{
    for (int d = 16; d > 0; d /= 2) v += __shfl_down_sync(0xffffffffu, v, d);
    return __shfl_sync(0xffffffffu, v, 0);
}

static __global__ void tree(int n, const float *in, float *out)
{
    __shared__ float s[T];
    const float *x = in + (size_t)blockIdx.x * n;
    int t = threadIdx.x;
    float mx = -FLT_MAX;
    for (int j = t; j < n; j += T) mx = fmaxf(mx, x[j]);
    s[t] = mx;
    __syncthreads();
    for (int h = T / 2; h > 0; h /= 2) {
        if (t < h) s[t] = fmaxf(s[t], s[t + h]);
        __syncthreads();
    }
    mx = s[0];
    __syncthreads();
    float sum = 0;
    for (int j = t; j < n; j += T) sum += __expf(x[j] - mx);
    s[t] = sum;
    __syncthreads();
    for (int h = T / 2; h > 0; h /= 2) {
        if (t < h) s[t] += s[t + h];
        __syncthreads();
    }
    sum = s[0];
    float inv = 1.0f / sum;
    for (int j = t; j < n; j += T) out[(size_t)blockIdx.x * n + j] = __expf(x[j] - mx) * inv;
}

static __global__ void warp_rows(int m, int n, const float *in, float *out)
{
    int row = (int)((blockIdx.x * (size_t)blockDim.x + threadIdx.x) / 32), lane = threadIdx.x % 32;
    if (row >= m) return;
    const float *x = in + (size_t)row * n;
    float mx = -FLT_MAX, s = 0;
    for (int j = lane; j < n; j += 32) mx = fmaxf(mx, x[j]);
    mx = down_max(mx);
    for (int j = lane; j < n; j += 32) s += __expf(x[j] - mx);
    s = down_sum(s);
    float inv = 1.0f / s;
    for (int j = lane; j < n; j += 32) out[(size_t)row * n + j] = __expf(x[j] - mx) * inv;
}

static __global__ void block_online(int n, const float *in, float *out)
{
    __shared__ float ms[T], ss[T];
    const float *x = in + (size_t)blockIdx.x * n;
    int t = threadIdx.x;
    float mx = -FLT_MAX, s = 0;
    for (int j = t; j < n; j += T) {
        float v = x[j];
        if (v > mx) s = s * __expf(mx - v) + 1.0f, mx = v;
        else s += __expf(v - mx);
    }
    ms[t] = mx, ss[t] = s;
    __syncthreads();
    for (int h = T / 2; h > 0; h /= 2) {
        if (t < h) {
            float m2 = ms[t + h], s2 = ss[t + h], top = fmaxf(ms[t], m2);
            ss[t] = (ss[t] > 0 ? ss[t] * __expf(ms[t] - top) : 0.0f) + (s2 > 0 ? s2 * __expf(m2 - top) : 0.0f);
            ms[t] = top;
        }
        __syncthreads();
    }
    mx = ms[0], s = ss[0];
    float inv = 1.0f / s;
    for (int j = t; j < n; j += T) out[(size_t)blockIdx.x * n + j] = __expf(x[j] - mx) * inv;
}

static __global__ void fixed_array(int m, int n, const float *in, float *out)
{
    int row = (int)((blockIdx.x * (size_t)blockDim.x + threadIdx.x) / 32), lane = threadIdx.x % 32;
    if (row >= m) return;
    const float *x = in + (size_t)row * n;
    float v[32], mx = -FLT_MAX, s = 0;
#pragma unroll
    for (int k = 0; k < 32; k++) {
        v[k] = lane + 32 * k < n ? x[lane + 32 * k] : -FLT_MAX;
        mx = fmaxf(mx, v[k]);
    }
    mx = down_max(mx);
#pragma unroll
    for (int k = 0; k < 32; k++) {
        v[k] = lane + 32 * k < n ? __expf(v[k] - mx) : 0.0f;
        s += v[k];
    }
    s = down_sum(s);
    float inv = 1.0f / s;
#pragma unroll
    for (int k = 0; k < 32; k++)
        if (lane + 32 * k < n) out[(size_t)row * n + lane + 32 * k] = v[k] * inv;
}

static unsigned warps(int m) { return (unsigned)(((size_t)m * 32 + 255) / 256); }

extern "C" void softmax_three_pass(int m, int n, const float *in, float *out) { tree<<<m, T>>>(n, in, out); }
extern "C" void softmax_warp(int m, int n, const float *in, float *out) { warp_rows<<<warps(m), 256>>>(m, n, in, out); }
extern "C" void softmax_online(int m, int n, const float *in, float *out) { block_online<<<m, T>>>(n, in, out); }
extern "C" void softmax_registers(int m, int n, const float *in, float *out)
{
    if (n <= 1024) fixed_array<<<warps(m), 256>>>(m, n, in, out);
    else warp_rows<<<warps(m), 256>>>(m, n, in, out);
}
