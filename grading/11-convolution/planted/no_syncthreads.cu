/* expect: wrong
 * threats: 22 (rows of ../shared/GRADER_THREATS.md)
 * The tiled kernel with its __syncthreads() left out between loading the tile and reading it. The
 * tile is loaded from its last pixel back, so the rows each warp reads are those the other warps
 * load: a warp whose loads came back first reads pixels not yet stored, left there by the block
 * before it on the SM (or never written). Right only when the warps happen to keep in step. */
#include "conv.h"

#include <cuda_runtime.h>

#include "planted/common_kernels.h"

static __global__ void racy(int m, int n, int K, const float *in, float *out)
{
    __shared__ float tile[(8 + CONV_MAX_K - 1) * (32 + CONV_MAX_K - 1)];
    int r = K / 2, ih = 8 + K - 1, iw = 32 + K - 1, i0 = blockIdx.y * 8, j0 = blockIdx.x * 32;
    int t = threadIdx.y * 32 + threadIdx.x, tx = threadIdx.x, ty = threadIdx.y;
    for (int e = ih * iw - 1 - t; e >= 0; e -= 256) {
        int row = i0 + e / iw - r, col = j0 + e % iw - r;
        tile[e] = row >= 0 && row < m && col >= 0 && col < n ? in[(size_t)row * n + col] : 0.0f;
    }
    /* __syncthreads() belongs here */
    int i = i0 + ty, j = j0 + tx;
    if (i >= m || j >= n) return;
    float acc = 0.0f;
    for (int a = 0; a < K; a++)
        for (int b = 0; b < K; b++) acc = fmaf(plant_filter[a * K + b], tile[(ty + a) * iw + tx + b], acc);
    out[(size_t)i * n + j] = acc;
}

static void cv(int m, int n, int K, const float *in, const float *filter, float *out)
{
    plant_load_filter(K, filter);
    racy<<<plant_grid(m, n), plant_block>>>(m, n, K, in, out);
}

#include "planted/entry_points.h"
