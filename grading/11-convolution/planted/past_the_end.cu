/* expect: out-of-bounds
 * threats: 16 (rows of ../shared/GRADER_THREATS.md)
 * A correct tiled kernel that tests its output's column against n but not its row against m: when
 * m is not a multiple of the tile's 8 rows, the last row of blocks writes up to 7 rows past the end
 * of out. The device guard zones the grader puts around every buffer show it, first at 1 x 1. */
#include "conv.h"

#include <cuda_runtime.h>

#include "planted/common_kernels.h"

static __global__ void unguarded(int m, int n, int K, const float *in, float *out)
{
    __shared__ float tile[(8 + CONV_MAX_K - 1) * (32 + CONV_MAX_K - 1)];
    int r = K / 2, ih = 8 + K - 1, iw = 32 + K - 1, i0 = blockIdx.y * 8, j0 = blockIdx.x * 32;
    int tx = threadIdx.x, ty = threadIdx.y;
    for (int e = ty * 32 + tx; e < ih * iw; e += 256) {
        int row = i0 + e / iw - r, col = j0 + e % iw - r;
        tile[e] = row >= 0 && row < m && col >= 0 && col < n ? in[(size_t)row * n + col] : 0.0f;
    }
    __syncthreads();
    int i = i0 + ty, j = j0 + tx;
    if (j >= n) return; /* the row is never tested */
    float acc = 0.0f;
    for (int a = 0; a < K; a++)
        for (int b = 0; b < K; b++) acc = fmaf(plant_filter[a * K + b], tile[(ty + a) * iw + tx + b], acc);
    out[(size_t)i * n + j] = acc;
}

static void cv(int m, int n, int K, const float *in, const float *filter, float *out)
{
    plant_load_filter(K, filter);
    unguarded<<<plant_grid(m, n), plant_block>>>(m, n, K, in, out);
}

#include "planted/entry_points.h"
