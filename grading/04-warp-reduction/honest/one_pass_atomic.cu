/* honest: every sum in a single pass: *out is cleared with cudaMemsetAsync, each block (of 128
 * threads, each first adding eight inputs) reduces in shared memory or with shuffles as its
 * stage asks and adds its partial to *out with atomicAdd. (Floating-point addition is not
 * associative, but these inputs are multiples of 2^-6 whose partial sums stay exact: any order
 * gives the same sum, lab.c says.) Vector add with two elements a thread; matvec with one
 * warp per block (thread version), eight rows a block (warp version), 256 threads per row
 * (block version, sums combined with atomics into a cleared y).
 * A correct submission written differently from the reference: the grader must pass it.
 * Not run on a GPU by its author: written to be clearly correct, each kernel at least as
 * economical as the reference's. */
#include "reduce.h"

#include <cuda_runtime.h>

#define TPB 128 /* threads per block of the sums: a power of two */
#define PER 8   /* inputs each thread adds before the block's reduction */

static int grid_for(long n, long per_block) { return (int)((n + per_block - 1) / per_block); }

/* ================================================================ vector add */

static __global__ void add2_kernel(int n, const float *a, const float *b, float *c)
{
    long i = 2 * ((long)blockIdx.x * blockDim.x + threadIdx.x);
    if (i + 1 < n) {
        float2 x = *(const float2 *)(a + i), y = *(const float2 *)(b + i); /* 8-byte aligned: i is even */
        *(float2 *)(c + i) = make_float2(x.x + y.x, x.y + y.y);
    } else if (i < n) {
        c[i] = a[i] + b[i];
    }
}

extern "C" void vector_add(int n, const float *a, const float *b, float *c)
{
    add2_kernel<<<grid_for(n, 2 * 1024), 1024>>>(n, a, b, c);
}

/* ================================================================ the sums */

/* Thread t of block b first adds inputs b TPB PER + t + j TPB, j < PER (each load coalesced). */
static __device__ float gather(int n, const float *in)
{
    long base = (long)blockIdx.x * TPB * PER + threadIdx.x;
    float v = 0.0f;
#pragma unroll
    for (int j = 0; j < PER; j++) v += base + j * TPB < n ? in[base + j * TPB] : 0.0f;
    return v;
}

enum shape { INTERLEAVED, STRIDED, SEQUENTIAL };

template <shape S> static __global__ void __launch_bounds__(TPB) tree_atomic(int n, const float *in, float *out)
{
    __shared__ float s[TPB];
    unsigned t = threadIdx.x;
    s[t] = gather(n, in);
    __syncthreads();
    for (unsigned h = 1; h < TPB; h <<= 1) { /* h: the distance between the pair's halves */
        if (S == INTERLEAVED) {
            if (t % (2 * h) == 0) s[t] += s[t + h];
        } else if (S == STRIDED) {
            unsigned j = 2 * h * t;
            if (j < TPB) s[j] += s[j + h];
        } else {
            unsigned half = TPB / (2 * h); /* TPB/2, TPB/4, ..., 1 */
            if (t < half) s[t] += s[t + half];
        }
        __syncthreads();
    }
    if (t == 0) atomicAdd(out, s[0]);
}

template <shape S> static void tree_sum(int n, const float *in, float *out)
{
    cudaMemsetAsync(out, 0, sizeof(float));
    tree_atomic<S><<<grid_for(n, TPB * PER), TPB>>>(n, in, out);
}

extern "C" void reduce_interleaved(int n, const float *in, float *out, float *work)
{
    (void)work;
    tree_sum<INTERLEAVED>(n, in, out);
}
extern "C" void reduce_strided(int n, const float *in, float *out, float *work)
{
    (void)work;
    tree_sum<STRIDED>(n, in, out);
}
extern "C" void reduce_sequential(int n, const float *in, float *out, float *work)
{
    (void)work;
    tree_sum<SEQUENTIAL>(n, in, out);
}

/* Shuffles down each warp, then lane 0 of each of the four warps adds its sum to *out. */
static __global__ void __launch_bounds__(TPB) shuffle_atomic(int n, const float *in, float *out)
{
    float v = gather(n, in);
    for (int d = 16; d > 0; d >>= 1) v += __shfl_down_sync(0xffffffffu, v, d);
    if (threadIdx.x % 32 == 0) atomicAdd(out, v);
}

extern "C" void reduce_shuffle(int n, const float *in, float *out, float *work)
{
    (void)work;
    cudaMemsetAsync(out, 0, sizeof(float));
    shuffle_atomic<<<grid_for(n, TPB * PER), TPB>>>(n, in, out);
}

/* float4 loads in a grid-stride loop over 8 blocks a multiprocessor of 256 threads, two loads in
 * flight per step; the n % 4 tail in block 0; warp sums by shuffles and one atomicAdd a warp. */
static __global__ void __launch_bounds__(256) vec_atomic(int n, const float *in, float *out)
{
    const float4 *in4 = (const float4 *)in; /* cudaMalloc memory: 16-byte aligned */
    long n4 = n / 4, stride = (long)gridDim.x * blockDim.x, i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    float s0 = 0.0f, s1 = 0.0f;
    for (; i + stride < n4; i += 2 * stride) {
        float4 a = in4[i], b = in4[i + stride];
        s0 += (a.x + a.y) + (a.z + a.w);
        s1 += (b.x + b.y) + (b.z + b.w);
    }
    if (i < n4) {
        float4 a = in4[i];
        s0 += (a.x + a.y) + (a.z + a.w);
    }
    if (blockIdx.x == 0 && threadIdx.x < n % 4) s1 += in[4 * n4 + threadIdx.x];
    float v = s0 + s1;
    for (int d = 16; d > 0; d >>= 1) v += __shfl_down_sync(0xffffffffu, v, d);
    if (threadIdx.x % 32 == 0) atomicAdd(out, v);
}

extern "C" void reduce_vectorized(int n, const float *in, float *out, float *work)
{
    (void)work;
    int device = 0, sms = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    int blocks = 8 * (sms > 0 ? sms : 100), needed = grid_for(n / 4 + 1, 256);
    if (blocks > needed) blocks = needed;
    cudaMemsetAsync(out, 0, sizeof(float));
    vec_atomic<<<blocks, 256>>>(n, in, out);
}

/* ================================================================ matvec */

/* One thread per row, one warp per block. */
static __global__ void mv_thread_kernel(int m, int n, const double *A, const double *x, double *y)
{
    int r = blockIdx.x * 32 + threadIdx.x;
    if (r >= m) return;
    const double *a = A + (size_t)r * n;
    double s = 0.0;
    for (int j = 0; j < n; j++) s += a[j] * x[j];
    y[r] = s;
}

extern "C" void matvec_thread(int m, int n, const double *A, const double *x, double *y)
{
    mv_thread_kernel<<<grid_for(m, 32), 32>>>(m, n, A, x, y);
}

static __device__ double warp_sum_d(double v)
{
    for (int d = 16; d > 0; d >>= 1) v += __shfl_down_sync(0xffffffffu, v, d);
    return v;
}

/* A warp per row: blocks of 32 x 8 threads, threadIdx.y picks the row. */
static __global__ void mv_warp_kernel(int m, int n, const double *A, const double *x, double *y)
{
    int r = blockIdx.x * 8 + threadIdx.y, lane = threadIdx.x;
    if (r >= m) return;
    const double *a = A + (size_t)r * n;
    double s0 = 0.0, s1 = 0.0;
    int j = lane;
    for (; j + 32 < n; j += 64) s0 += a[j] * x[j], s1 += a[j + 32] * x[j + 32];
    if (j < n) s0 += a[j] * x[j];
    double v = warp_sum_d(s0 + s1);
    if (lane == 0) y[r] = v;
}

extern "C" void matvec_warp(int m, int n, const double *A, const double *x, double *y)
{
    mv_warp_kernel<<<grid_for(m, 8), dim3(32, 8)>>>(m, n, A, x, y);
}

/* Several warps per row: a 256-thread block per row, each warp's sum added to y[row] with
 * atomicAdd (double atomics: sm_60 and later), y cleared first. */
static __global__ void __launch_bounds__(256) mv_block_kernel(int n, const double *A, const double *x, double *y)
{
    const double *a = A + (size_t)blockIdx.x * n;
    double s0 = 0.0, s1 = 0.0;
    int j = threadIdx.x;
    for (; j + 256 < n; j += 512) s0 += a[j] * x[j], s1 += a[j + 256] * x[j + 256];
    if (j < n) s0 += a[j] * x[j];
    double v = warp_sum_d(s0 + s1);
    if (threadIdx.x % 32 == 0) atomicAdd(&y[blockIdx.x], v);
}

extern "C" void matvec_block(int m, int n, const double *A, const double *x, double *y)
{
    if (m <= 0) return;
    cudaMemsetAsync(y, 0, (size_t)m * sizeof(double));
    mv_block_kernel<<<m, 256>>>(n, A, x, y);
}
