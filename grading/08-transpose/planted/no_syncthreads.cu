/* expect: wrong
 * threats: 22 (rows of ../shared/GRADER_THREATS.md)
 * The padded tile with its __syncthreads() left out: each warp writes out elements of the tile
 * that other warps of the block have not loaded yet. Right only when the 8 warps happen to keep in
 * step, as they may for a tile or two; over 8192 x 12288 they never all do. */
#include "transpose.h"

static __global__ void racy(int m, int n, const float *in, float *out)
{
    __shared__ float tile[32][33];
    int i0 = blockIdx.y * 32, j0 = blockIdx.x * 32, tx = threadIdx.x;
    for (int r = threadIdx.y; r < 32; r += 8)
        if (i0 + r < m && j0 + tx < n) tile[r][tx] = in[(size_t)(i0 + r) * n + j0 + tx];
    for (int r = threadIdx.y; r < 32; r += 8)
        if (j0 + r < n && i0 + tx < m) out[(size_t)(j0 + r) * m + i0 + tx] = tile[tx][r];
}

static void tr(int m, int n, const float *in, float *out)
{
    racy<<<dim3((n + 31) / 32, (m + 31) / 32), dim3(32, 8)>>>(m, n, in, out);
}

#include "planted/entry_points.h"
