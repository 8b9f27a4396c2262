/* expect: wrong
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * A plain bug: the textbook's convolution, the filter flipped (tap (K-1-a, K-1-b) against pixel
 * (i+a-r, j+b-r)), where the lab asks for the ML convention, cross-correlation, which flips
 * nothing. The two agree only for a filter symmetric under the flip, which a random one never is,
 * and at 1 x 1, where only the centre tap counts and the flip leaves it in place. */
#include "conv.h"

#include <cuda_runtime.h>

#include "planted/common_kernels.h"

static __global__ void flipped(int m, int n, int K, const float *in, float *out)
{
    int j = blockIdx.x * 32 + threadIdx.x, i = blockIdx.y * 8 + threadIdx.y, r = K / 2;
    if (i >= m || j >= n) return;
    float acc = 0.0f;
    for (int a = 0; a < K; a++)
        for (int b = 0; b < K; b++) {
            int row = i + a - r, col = j + b - r;
            if (row >= 0 && row < m && col >= 0 && col < n)
                acc = fmaf(plant_filter[(K - 1 - a) * K + (K - 1 - b)], in[(size_t)row * n + col], acc);
        }
    out[(size_t)i * n + j] = acc;
}

static void cv(int m, int n, int K, const float *in, const float *filter, float *out)
{
    plant_load_filter(K, filter);
    flipped<<<plant_grid(m, n), plant_block>>>(m, n, K, in, out);
}

#include "planted/entry_points.h"
