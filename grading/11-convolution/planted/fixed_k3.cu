/* expect: wrong
 * threats: 23 (rows of ../shared/GRADER_THREATS.md)
 * Written and tested for a 3 x 3 filter only: r = 1 and the 3 x 3 loops are fixed, K is ignored.
 * Right at 1 x 1 and 64 x 128 with K = 3, and wherever the random shape draws K = 3; wrong for
 * every other K, the timed K = 7 included (its taps beyond the centre 3 x 3 are never summed, and
 * the taps it does sum are read with the wrong row length of the filter). */
#include "conv.h"

#include <cuda_runtime.h>

#include "planted/common_kernels.h"

static __global__ void three_by_three(int m, int n, const float *in, float *out)
{
    int j = blockIdx.x * 32 + threadIdx.x, i = blockIdx.y * 8 + threadIdx.y;
    if (i >= m || j >= n) return;
    float acc = 0.0f;
#pragma unroll
    for (int a = 0; a < 3; a++)
#pragma unroll
        for (int b = 0; b < 3; b++) {
            int row = i + a - 1, col = j + b - 1;
            if (row >= 0 && row < m && col >= 0 && col < n)
                acc = fmaf(plant_filter[a * 3 + b], in[(size_t)row * n + col], acc);
        }
    out[(size_t)i * n + j] = acc;
}

static void cv(int m, int n, int K, const float *in, const float *filter, float *out)
{
    plant_load_filter(K, filter);
    three_by_three<<<plant_grid(m, n), plant_block>>>(m, n, in, out);
}

#include "planted/entry_points.h"
