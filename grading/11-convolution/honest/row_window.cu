/* honest: shapes and choices other than the reference's. Stage 1 numbers the outputs in one flat
 * range (blocks of 128 threads) and stages the filter in shared memory, clamping its loops to the
 * taps inside the image instead of testing each; stage 2 is stage 1's loops with the filter in a
 * `static __constant__` array, copied with cudaMemcpyToSymbolAsync (cudaMemcpyDefault) and K a run-
 * time value; stage 3 uses tiles of 4 x 64 outputs (blocks of 64 x 4 threads), K chosen by a
 * switch; stage 4 coarsens along the row only, 4 outputs a thread over tiles of 8 x 128, storing
 * them one float at a time. A correct submission written differently from the reference: the
 * grader must pass it. */
#include "conv.h"

#include <cuda_runtime.h>

static __constant__ float taps[CONV_MAX_K * CONV_MAX_K];

static void upload(int K, const float *filter)
{
    cudaMemcpyToSymbolAsync(taps, filter, sizeof(float) * K * K, 0, cudaMemcpyDefault, 0);
}

/* The taps a, b of output (i, j) whose pixel is inside the image: a in [alo, ahi), b in [blo, bhi). */
struct window_range {
    int alo, ahi, blo, bhi;
};
static __device__ window_range inside(int m, int n, int K, int i, int j)
{
    int r = K / 2;
    window_range w;
    w.alo = r - i > 0 ? r - i : 0, w.ahi = m - i + r < K ? m - i + r : K;
    w.blo = r - j > 0 ? r - j : 0, w.bhi = n - j + r < K ? n - j + r : K;
    return w;
}

static __global__ void flat(int m, int n, int K, const float *in, const float *filter, float *out)
{
    __shared__ float f[CONV_MAX_K * CONV_MAX_K];
    for (int t = threadIdx.x; t < K * K; t += blockDim.x) f[t] = filter[t];
    __syncthreads();
    size_t k = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (k >= (size_t)m * n) return;
    int i = (int)(k / n), j = (int)(k % n), r = K / 2;
    window_range w = inside(m, n, K, i, j);
    float acc = 0.0f;
    for (int a = w.alo; a < w.ahi; a++)
        for (int b = w.blo; b < w.bhi; b++) acc += f[a * K + b] * in[(size_t)(i + a - r) * n + (j + b - r)];
    out[k] = acc;
}

static __global__ void flat_constant(int m, int n, int K, const float *in, float *out)
{
    int j = blockIdx.x * 16 + threadIdx.x, i = blockIdx.y * 16 + threadIdx.y, r = K / 2;
    if (i >= m || j >= n) return;
    window_range w = inside(m, n, K, i, j);
    float acc = 0.0f;
    for (int a = w.alo; a < w.ahi; a++)
        for (int b = w.blo; b < w.bhi; b++) acc += taps[a * K + b] * in[(size_t)(i + a - r) * n + (j + b - r)];
    out[(size_t)i * n + j] = acc;
}

/* Stage 3: 4 rows x 64 columns of outputs a block. */
template <int K>
static __global__ void wide_tile(int m, int n, const float *in, float *out)
{
    constexpr int r = K / 2, H = 4 + K - 1, W = 64 + K - 1;
    __shared__ float s[H][W];
    int i0 = blockIdx.y * 4, j0 = blockIdx.x * 64;
    for (int e = threadIdx.y * 64 + threadIdx.x; e < H * W; e += 256) {
        int row = i0 + e / W - r, col = j0 + e % W - r;
        s[e / W][e % W] = row >= 0 && row < m && col >= 0 && col < n ? in[(size_t)row * n + col] : 0.0f;
    }
    __syncthreads();
    int i = i0 + threadIdx.y, j = j0 + threadIdx.x;
    if (i < m && j < n) {
        float acc = 0.0f;
#pragma unroll
        for (int a = 0; a < K; a++)
#pragma unroll
            for (int b = 0; b < K; b++) acc += taps[a * K + b] * s[threadIdx.y + a][threadIdx.x + b];
        out[(size_t)i * n + j] = acc;
    }
}

/* Stage 4: a thread's 4 outputs of one row from a window of 4 + K - 1 pixels per filter row, read
 * as float4s (4 adjacent pixels, 16-byte aligned: the row length P is a multiple of 4). */
template <int K>
static __global__ void row_window(int m, int n, const float *in, float *out)
{
    constexpr int r = K / 2, H = 8 + K - 1, V = (4 + K - 1 + 3) / 4, P = 4 * 31 + 4 * V;
    __shared__ float4 s4[H * P / 4];
    float *s = (float *)s4;
    int i0 = blockIdx.y * 8, j0 = blockIdx.x * 128, tx = threadIdx.x, ty = threadIdx.y;
    for (int y = ty; y < H; y += 8)
        for (int x = tx; x < P; x += 32) {
            int row = i0 + y - r, col = j0 + x - r;
            s[y * P + x] = row >= 0 && row < m && col >= 0 && col < n ? in[(size_t)row * n + col] : 0.0f;
        }
    __syncthreads();
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
#pragma unroll
    for (int a = 0; a < K; a++) {
        float v[4 * V];
        const float4 *p = s4 + ((ty + a) * P + 4 * tx) / 4;
#pragma unroll
        for (int q = 0; q < V; q++) v[4 * q] = p[q].x, v[4 * q + 1] = p[q].y, v[4 * q + 2] = p[q].z, v[4 * q + 3] = p[q].w;
#pragma unroll
        for (int c = 0; c < 4; c++)
#pragma unroll
            for (int b = 0; b < K; b++) acc[c] += taps[a * K + b] * v[c + b];
    }
    int i = i0 + ty;
    for (int c = 0; c < 4; c++) {
        int j = j0 + 4 * tx + c;
        if (i < m && j < n) out[(size_t)i * n + j] = acc[c];
    }
}

#define BY_K(kernel, grid, block, m, n, in, out) \
    switch (K) { \
    case 3: kernel<3><<<grid, block>>>(m, n, in, out); break; \
    case 5: kernel<5><<<grid, block>>>(m, n, in, out); break; \
    case 7: kernel<7><<<grid, block>>>(m, n, in, out); break; \
    case 9: kernel<9><<<grid, block>>>(m, n, in, out); break; \
    case 11: kernel<11><<<grid, block>>>(m, n, in, out); break; \
    case 13: kernel<13><<<grid, block>>>(m, n, in, out); break; \
    case 15: kernel<15><<<grid, block>>>(m, n, in, out); break; \
    }

extern "C" void conv_naive(int m, int n, int K, const float *in, const float *filter, float *out)
{
    flat<<<(unsigned)(((size_t)m * n + 127) / 128), 128>>>(m, n, K, in, filter, out);
}

extern "C" void conv_constant(int m, int n, int K, const float *in, const float *filter, float *out)
{
    upload(K, filter);
    flat_constant<<<dim3((n + 15) / 16, (m + 15) / 16), dim3(16, 16)>>>(m, n, K, in, out);
}

extern "C" void conv_tiled(int m, int n, int K, const float *in, const float *filter, float *out)
{
    upload(K, filter);
    dim3 grid((n + 63) / 64, (m + 3) / 4), block(64, 4);
    BY_K(wide_tile, grid, block, m, n, in, out)
}

extern "C" void conv_coarsened(int m, int n, int K, const float *in, const float *filter, float *out)
{
    upload(K, filter);
    dim3 grid((n + 127) / 128, (m + 7) / 8), block(32, 8);
    BY_K(row_window, grid, block, m, n, in, out)
}
