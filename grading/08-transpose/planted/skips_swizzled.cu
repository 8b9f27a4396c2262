/* expect: technique in swizzled
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * A stage skipped: `swizzled` runs stage 2's code in the CUDA samples' shape, a 16 x 16 tile
 * unpadded and unswizzled, one element a thread. Right at every size; on an H200 it streams about
 * as fast as the same tile padded (45% and 48% of the copy), so speed cannot tell them apart. Its
 * column reads are a 4-way bank conflict at best, which is what the stage is there to remove. */
#include "transpose.h"

static __global__ void tile16(int m, int n, const float *__restrict__ in, float *__restrict__ out)
{
    __shared__ float tile[16][16];
    int tx = threadIdx.x, ty = threadIdx.y, i = blockIdx.y * 16 + ty, j = blockIdx.x * 16 + tx;
    if (i < m && j < n) tile[ty][tx] = in[(size_t)i * n + j];
    __syncthreads();
    i = blockIdx.y * 16 + tx, j = blockIdx.x * 16 + ty;
    if (i < m && j < n) out[(size_t)j * m + i] = tile[tx][ty];
}

static void tr(int m, int n, const float *in, float *out)
{
    tile16<<<dim3((n + 15) / 16, (m + 15) / 16), dim3(16, 16)>>>(m, n, in, out);
}

#include "planted/entry_points.h"
