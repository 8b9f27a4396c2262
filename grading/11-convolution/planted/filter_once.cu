/* expect: wrong
 * threats: 4 (rows of ../shared/GRADER_THREATS.md)
 * Copies the filter into constant memory on the first call of each K only, to save the copy on
 * later calls: every later call with that K convolves with a filter that is no longer the one it
 * was given. The grader draws a new filter (and image) for each call of a correctness case, so the
 * second call of the first case already shows it. */
#include "conv.h"

#include <cuda_runtime.h>

#include "planted/common_kernels.h"

static __global__ void correct(int m, int n, int K, const float *in, float *out)
{
    int j = blockIdx.x * 32 + threadIdx.x, i = blockIdx.y * 8 + threadIdx.y, r = K / 2;
    if (i >= m || j >= n) return;
    float acc = 0.0f;
    for (int a = 0; a < K; a++)
        for (int b = 0; b < K; b++) {
            int row = i + a - r, col = j + b - r;
            if (row >= 0 && row < m && col >= 0 && col < n)
                acc = fmaf(plant_filter[a * K + b], in[(size_t)row * n + col], acc);
        }
    out[(size_t)i * n + j] = acc;
}

static void cv(int m, int n, int K, const float *in, const float *filter, float *out)
{
    static int copied_k = 0;
    if (K != copied_k) plant_load_filter(K, filter), copied_k = K;
    correct<<<plant_grid(m, n), plant_block>>>(m, n, K, in, out);
}

#include "planted/entry_points.h"
