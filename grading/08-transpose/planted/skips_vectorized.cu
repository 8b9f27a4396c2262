/* expect: technique in vectorized
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * A stage skipped: `vectorized` runs stage 3's code, the padded 32 x 32 tile moved by 32 x 8
 * threads, four rows each. Right at every size, and on an H100 within a few points of a float4
 * kernel (90% of the copy against 96%), so its speed would pass; it has no vector load or store,
 * which is what the stage teaches. */
#include "transpose.h"

static __global__ void padded_tile(int m, int n, const float *__restrict__ in, float *__restrict__ out)
{
    __shared__ float tile[32][33];
    int i0 = blockIdx.y * 32, j0 = blockIdx.x * 32, tx = threadIdx.x;
    for (int r = threadIdx.y; r < 32; r += 8)
        if (i0 + r < m && j0 + tx < n) tile[r][tx] = in[(size_t)(i0 + r) * n + j0 + tx];
    __syncthreads();
    for (int r = threadIdx.y; r < 32; r += 8)
        if (j0 + r < n && i0 + tx < m) out[(size_t)(j0 + r) * m + i0 + tx] = tile[tx][r];
}

static void tr(int m, int n, const float *in, float *out)
{
    padded_tile<<<dim3((n + 31) / 32, (m + 31) / 32), dim3(32, 8)>>>(m, n, in, out);
}

#include "planted/entry_points.h"
