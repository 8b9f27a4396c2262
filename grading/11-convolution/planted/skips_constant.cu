/* expect: technique in constant
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * A stage skipped: `constant` runs stage 1's code, one thread an output with the filter read from
 * global memory like the image (11% of its roof on an H100, over `constant`'s 7%). Right at every
 * size; it reads no __constant__ memory, which is what the stage teaches. */
#include "conv.h"

#include <cuda_runtime.h>

static __global__ void naive(int m, int n, int K, const float *in, const float *filter, float *out)
{
    int j = blockIdx.x * 32 + threadIdx.x, i = blockIdx.y * 8 + threadIdx.y, r = K / 2;
    if (i >= m || j >= n) return;
    float acc = 0.0f;
    for (int a = 0; a < K; a++)
        for (int b = 0; b < K; b++) {
            int row = i + a - r, col = j + b - r;
            if (row >= 0 && row < m && col >= 0 && col < n) acc = fmaf(filter[a * K + b], in[(size_t)row * n + col], acc);
        }
    out[(size_t)i * n + j] = acc;
}

static void cv(int m, int n, int K, const float *in, const float *filter, float *out)
{
    naive<<<dim3((unsigned)((n + 31) / 32), (unsigned)((m + 7) / 8)), dim3(32, 8)>>>(m, n, K, in, filter, out);
}

#include "planted/entry_points.h"
