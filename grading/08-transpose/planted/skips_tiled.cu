/* expect: too-slow in tiled
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * A stage skipped: `tiled` runs stage 1's code, a thread an element: reads along a row of the input
 * (coalesced), writes down a column of the output, 32 rows apart, a sector each. Right at every
 * size; 13-16% of the copy on an H100 where a shared tile turning the writes into rows reaches
 * 56%. */
#include "transpose.h"
#include <cuda_runtime.h>

static __global__ void element_threads(int m, int n, const float *in, float *out)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < m && col < n) out[(size_t)col * m + row] = in[(size_t)row * n + col];
}

static void tr(int m, int n, const float *in, float *out)
{
    dim3 block(32, 8), grid((n + 31) / 32, (m + 7) / 8);
    element_threads<<<grid, block>>>(m, n, in, out);
}

#include "planted/entry_points.h"
