/* expect: technique in padded
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * A stage skipped: `padded` runs stage 2's code, a 32 x 32 tile unpadded, moved by 32 x 8 threads.
 * Right at every size, and fast: 56% of the copy on an H100 against `padded`'s 36%. Its column
 * reads put a warp's 32 lanes in one bank (an 8-way conflict at best, whatever the block's
 * shape), which is what the stage is there to remove. */
#include "transpose.h"

static __global__ void unpadded_tile(int m, int n, const float *__restrict__ in, float *__restrict__ out)
{
    __shared__ float tile[32][32];
    int i0 = blockIdx.y * 32, j0 = blockIdx.x * 32, tx = threadIdx.x;
    for (int r = threadIdx.y; r < 32; r += 8)
        if (i0 + r < m && j0 + tx < n) tile[r][tx] = in[(size_t)(i0 + r) * n + j0 + tx];
    __syncthreads();
    for (int r = threadIdx.y; r < 32; r += 8)
        if (j0 + r < n && i0 + tx < m) out[(size_t)(j0 + r) * m + i0 + tx] = tile[tx][r];
}

static void tr(int m, int n, const float *in, float *out)
{
    unpadded_tile<<<dim3((n + 31) / 32, (m + 31) / 32), dim3(32, 8)>>>(m, n, in, out);
}

#include "planted/entry_points.h"
