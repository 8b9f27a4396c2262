/* expect: wrong
 * threats: 23, 24 (rows of ../shared/GRADER_THREATS.md)
 * A correct padded 32 x 32 tile, but only where a whole tile fits: the grid is n / 32 by m / 32
 * blocks, rounded down, and nothing is bounds-checked. Right at 32 x 32 and at the timed
 * 8192 x 12288 (both multiples of the tile); the last m % 32 rows and n % 32 columns of every
 * other size are never written, and a matrix smaller than a tile not at all. */
#include "transpose.h"

static __global__ void tile_kernel(int m, int n, const float *in, float *out)
{
    __shared__ float tile[32][33];
    int i0 = blockIdx.y * 32, j0 = blockIdx.x * 32;
    for (int r = threadIdx.y; r < 32; r += 8) tile[r][threadIdx.x] = in[(size_t)(i0 + r) * n + j0 + threadIdx.x];
    __syncthreads();
    for (int r = threadIdx.y; r < 32; r += 8) out[(size_t)(j0 + r) * m + i0 + threadIdx.x] = tile[threadIdx.x][r];
}

static void tr(int m, int n, const float *in, float *out)
{
    if (m >= 32 && n >= 32) tile_kernel<<<dim3(n / 32, m / 32), dim3(32, 8)>>>(m, n, in, out);
}

#include "planted/entry_points.h"
