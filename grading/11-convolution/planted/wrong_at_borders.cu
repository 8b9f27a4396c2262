/* expect: wrong
 * threats: 24 (rows of ../shared/GRADER_THREATS.md)
 * Clamps each tap's pixel to the nearest edge of the image ("replicate" padding) instead of taking
 * it as 0: every output at least r pixels from the edges is right, the frame of r rows and
 * columns around them wrong. Only a check of every element, the edges included, sees it; at
 * 1 x 1 all K^2 taps land on the one pixel. */
#include "conv.h"

#include <cuda_runtime.h>

#include "planted/common_kernels.h"

static __global__ void clamped(int m, int n, int K, const float *in, float *out)
{
    int j = blockIdx.x * 32 + threadIdx.x, i = blockIdx.y * 8 + threadIdx.y, r = K / 2;
    if (i >= m || j >= n) return;
    float acc = 0.0f;
    for (int a = 0; a < K; a++)
        for (int b = 0; b < K; b++) {
            int row = min(max(i + a - r, 0), m - 1), col = min(max(j + b - r, 0), n - 1);
            acc = fmaf(plant_filter[a * K + b], in[(size_t)row * n + col], acc);
        }
    out[(size_t)i * n + j] = acc;
}

static void cv(int m, int n, int K, const float *in, const float *filter, float *out)
{
    plant_load_filter(K, filter);
    clamped<<<plant_grid(m, n), plant_block>>>(m, n, K, in, out);
}

#include "planted/entry_points.h"
