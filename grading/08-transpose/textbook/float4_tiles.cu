/* textbook: vectorized
 * The vectorised transpose as commonly written on top of Mark Harris, "An Efficient Matrix
 * Transpose in CUDA C/C++" (NVIDIA Developer Blog, 2013): his kernel transposeNoBankConflicts,
 * the 32 x 32 tile padded to __shared__ float tile[32][33], TILE_DIM 32 and BLOCK_ROWS 8 with the
 * same loop j = 0, 8, 16, 24 over the tile's rows, each thread now moving four consecutive
 * elements as one float4 instead of one float: blocks of TILE_DIM / 4 x BLOCK_ROWS = 8 x 8
 * threads, a float4 load of a row of idata scattered into the tile, and a float4 gathered from
 * four rows of the tile down one column stored as a row of odata (the tile itself is read and
 * written a float at a time: rows of 33 floats are not 16-byte aligned). Not the honest
 * variant's shape (grading/08-transpose/honest/textbook.cu: 8 x 32 threads, one float4 each way).
 * Added for the lab's interface: m x n instead of the blog's square multiples of 32 (rows of idata
 * n long, of odata m long; the grid rounded up; offsets in size_t); the float4 path taken only
 * where the host finds m and n multiples of 4 and both pointers 16-byte aligned, and only by tiles
 * wholly inside the matrix (a test the same for the whole block); other tiles go element by
 * element, four floats a thread, each bounds-tested. Graded on `vectorized` only: the other
 * stages are stubs. */
#include "transpose.h"

#include <cuda_runtime.h>
#include <stdint.h>

static const int TILE_DIM = 32;
static const int BLOCK_ROWS = 8;

static __global__ void transposeFloat4(float *odata, const float *idata, int m, int n, bool aligned)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];

    int tx = threadIdx.x, ty = threadIdx.y;
    bool whole = aligned && (blockIdx.x + 1) * TILE_DIM <= n && (blockIdx.y + 1) * TILE_DIM <= m;

    int x = blockIdx.x * TILE_DIM + 4 * tx; /* the first of this thread's four columns */
    int y = blockIdx.y * TILE_DIM + ty;

    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
        if (whole) {
            float4 v = *reinterpret_cast<const float4 *>(&idata[(size_t)(y + j) * n + x]);
            tile[ty + j][4 * tx] = v.x;
            tile[ty + j][4 * tx + 1] = v.y;
            tile[ty + j][4 * tx + 2] = v.z;
            tile[ty + j][4 * tx + 3] = v.w;
        } else {
            for (int q = 0; q < 4; q++)
                if (x + q < n && y + j < m) tile[ty + j][4 * tx + q] = idata[(size_t)(y + j) * n + x + q];
        }
    }

    __syncthreads();

    x = blockIdx.y * TILE_DIM + 4 * tx; /* transpose block offset */
    y = blockIdx.x * TILE_DIM + ty;

    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
        if (whole) {
            float4 v = make_float4(tile[4 * tx][ty + j], tile[4 * tx + 1][ty + j], tile[4 * tx + 2][ty + j],
                                   tile[4 * tx + 3][ty + j]);
            *reinterpret_cast<float4 *>(&odata[(size_t)(y + j) * m + x]) = v;
        } else {
            for (int q = 0; q < 4; q++)
                if (x + q < m && y + j < n) odata[(size_t)(y + j) * m + x + q] = tile[4 * tx + q][ty + j];
        }
    }
}

extern "C" void transpose_naive(int m, int n, const float *in, float *out)
{
    (void)m, (void)n, (void)in, (void)out;
}

extern "C" void transpose_tiled(int m, int n, const float *in, float *out)
{
    (void)m, (void)n, (void)in, (void)out;
}

extern "C" void transpose_padded(int m, int n, const float *in, float *out)
{
    (void)m, (void)n, (void)in, (void)out;
}

extern "C" void transpose_swizzled(int m, int n, const float *in, float *out)
{
    (void)m, (void)n, (void)in, (void)out;
}

extern "C" void transpose_vectorized(int m, int n, const float *in, float *out)
{
    bool aligned = m % 4 == 0 && n % 4 == 0 && (uintptr_t)in % 16 == 0 && (uintptr_t)out % 16 == 0;
    dim3 dimGrid((n + TILE_DIM - 1) / TILE_DIM, (m + TILE_DIM - 1) / TILE_DIM, 1);
    dim3 dimBlock(TILE_DIM / 4, BLOCK_ROWS, 1);
    transposeFloat4<<<dimGrid, dimBlock>>>(out, in, m, n, aligned);
}
