/* base.h - the convolution the lab-11 plants are made from: one thread an output (direct) or, with
 * PLANT_TILED, the block's input tile staged in shared memory (tiled); the filter in constant
 * memory, a grid of 32 x 8 threads. Right as it stands; each plant defines one PLANT_ switch
 * before including it, to break one thing, and then includes entry_points.h. */
#include "conv.h"

#include <cuda_runtime.h>

static __constant__ float plant_filter[CONV_MAX_K * CONV_MAX_K];

static void plant_load_filter(int K, const float *filter)
{
    cudaMemcpyToSymbol(plant_filter, filter, sizeof(float) * K * K, 0, cudaMemcpyDeviceToDevice);
}

static __global__ void direct(int m, int n, int K, const float *in, float *out)
{
#ifdef PLANT_FIXED_K3 /* written and tested for a 3 x 3 filter only */
    K = 3;
#endif
    int j = blockIdx.x * 32 + threadIdx.x, i = blockIdx.y * 8 + threadIdx.y, r = K / 2;
    if (i >= m || j >= n) return;
    float acc = 0.0f;
    for (int a = 0; a < K; a++)
        for (int b = 0; b < K; b++) {
#ifdef PLANT_CLAMPED /* the pixel nearest the tap's, inside the image: "replicate" padding */
            int row = min(max(i + a - r, 0), m - 1), col = min(max(j + b - r, 0), n - 1);
#else
            int row = i + a - r, col = j + b - r;
            if (row < 0 || row >= m || col < 0 || col >= n) continue;
#endif
#ifdef PLANT_FLIPPED /* the textbook's convolution: the filter flipped both ways */
            float f = plant_filter[(K - 1 - a) * K + (K - 1 - b)];
#else
            float f = plant_filter[a * K + b];
#endif
            acc = fmaf(f, in[(size_t)row * n + col], acc);
        }
    out[(size_t)i * n + j] = acc;
}

static __global__ void tiled(int m, int n, int K, const float *in, float *out)
{
    __shared__ float tile[(8 + CONV_MAX_K - 1) * (32 + CONV_MAX_K - 1)];
    int r = K / 2, ih = 8 + K - 1, iw = 32 + K - 1, i0 = blockIdx.y * 8, j0 = blockIdx.x * 32;
    int t = threadIdx.y * 32 + threadIdx.x, tx = threadIdx.x, ty = threadIdx.y;
#ifdef PLANT_NO_SYNCTHREADS /* loaded from the tile's last pixel back: each warp reads what others load */
    for (int e = ih * iw - 1 - t; e >= 0; e -= 256) {
#else
    for (int e = t; e < ih * iw; e += 256) {
#endif
        int row = i0 + e / iw - r, col = j0 + e % iw - r;
        tile[e] = row >= 0 && row < m && col >= 0 && col < n ? in[(size_t)row * n + col] : 0.0f;
    }
#ifndef PLANT_NO_SYNCTHREADS
    __syncthreads();
#endif
    int i = i0 + ty, j = j0 + tx;
#ifdef PLANT_ROW_UNTESTED /* the output's column tested against n, its row never against m */
    if (j >= n) return;
#else
    if (i >= m || j >= n) return;
#endif
    float acc = 0.0f;
    for (int a = 0; a < K; a++)
        for (int b = 0; b < K; b++) acc = fmaf(plant_filter[a * K + b], tile[(ty + a) * iw + tx + b], acc);
    out[(size_t)i * n + j] = acc;
}

#ifdef PLANT_WRITES_INPUT
static __global__ void halve(int m, int n, float *in)
{
    int j = blockIdx.x * 32 + threadIdx.x, i = blockIdx.y * 8 + threadIdx.y;
    if (i < m && j < n) in[(size_t)i * n + j] *= 0.5f;
}
#endif

static void cv(int m, int n, int K, const float *in, const float *filter, float *out)
{
#ifdef PLANT_FILTER_ONCE /* the filter copied on the first call of each K only */
    static int copied_k = 0;
    if (K != copied_k) plant_load_filter(K, filter), copied_k = K;
#else
    plant_load_filter(K, filter);
#endif
    dim3 grid((unsigned)((n + 31) / 32), (unsigned)((m + 7) / 8)), block(32, 8);
#ifdef PLANT_TILED
    tiled<<<grid, block>>>(m, n, K, in, out);
#else
    direct<<<grid, block>>>(m, n, K, in, out);
#endif
#ifdef PLANT_WRITES_INPUT /* then the image rescaled in place, the const cast away */
    halve<<<grid, block>>>(m, n, const_cast<float *>(in));
#endif
}
