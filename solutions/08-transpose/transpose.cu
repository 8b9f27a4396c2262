/* transpose.cu - lab 08, the reference: out = in^T, five ways. See handouts/08-transpose.md.
 *
 * in is m x n, out is n x m, both row-major floats on the device. Every kernel handles any m and
 * n (edge tiles are bounds-checked) and launches on the default stream. */
#include "transpose.h"

#include <cstdint>
#include <cuda_runtime.h>

namespace {

constexpr int TILE = 32; /* a tile is 32 x 32 elements: a warp's width each way */
constexpr int ROWS = 8;  /* stages 1-4: blocks of 32 x 8 threads, each thread 4 rows of the tile */

dim3 tiles(int m, int n) { return dim3((n + TILE - 1) / TILE, (m + TILE - 1) / TILE); }

/* Stage 1: thread (x, y) of the grid moves in[y][x] to out[x][y]. A warp's 32 reads are one row
 * segment of 128 bytes; its 32 writes land in 32 rows of out, 4 * m bytes apart. */
__global__ void naive_kernel(int m, int n, const float *__restrict__ in, float *__restrict__ out)
{
    int j = blockIdx.x * TILE + threadIdx.x;
    for (int r = threadIdx.y; r < TILE; r += ROWS) {
        int i = blockIdx.y * TILE + r;
        if (i < m && j < n) out[(size_t)j * m + i] = in[(size_t)i * n + j];
    }
}

/* Stages 2-4: the block reads a 32 x 32 tile of in along its rows into shared memory, then writes
 * the tile's columns as rows of out. Tile<PAD, SWIZZLE> says how the tile lies in shared memory:
 * logical element (r, c) at row r, column c ^ (SWIZZLE ? r : 0), rows TILE + PAD floats apart. */
template <int PAD, bool SWIZZLE>
__global__ void tile_kernel(int m, int n, const float *__restrict__ in, float *__restrict__ out)
{
    __shared__ float tile[TILE][TILE + PAD];
    int i0 = blockIdx.y * TILE, j0 = blockIdx.x * TILE, tx = threadIdx.x;
    for (int r = threadIdx.y; r < TILE; r += ROWS) { /* in[i0 + r][j0 + tx] to tile (r, tx) */
        int i = i0 + r, j = j0 + tx;
        if (i < m && j < n) tile[r][SWIZZLE ? tx ^ r : tx] = in[(size_t)i * n + j];
    }
    __syncthreads();
    for (int r = threadIdx.y; r < TILE; r += ROWS) { /* tile (tx, r) to out[j0 + r][i0 + tx] */
        int j = j0 + r, i = i0 + tx;
        if (j < n && i < m) out[(size_t)j * m + i] = tile[tx][SWIZZLE ? r ^ tx : r];
    }
}

/* Stage 5: 256 threads, one float4 in and one float4 out each. Thread t reads 4 consecutive
 * elements of row t / 8 of the tile (a warp: 4 rows of 128 bytes) and writes 4 consecutive
 * elements of row t / 8 of out's tile (4 rows of in's tile, down one column). With rows 33 floats
 * apart, element (4c + q, r) is in bank (4c + q + r) mod 32: for each q the warp's 8 values of c
 * and 4 of r fill the 32 banks once, on the way in and on the way out. Tiles inside the matrix
 * take the vector path; edge tiles, and sizes where a row does not start on 16 bytes, go element
 * by element in the same pattern. */
__global__ void vector_kernel(int m, int n, const float *__restrict__ in, float *__restrict__ out, bool aligned)
{
    __shared__ float tile[TILE][TILE + 1];
    int i0 = blockIdx.y * TILE, j0 = blockIdx.x * TILE, r = threadIdx.x / 8, c = threadIdx.x % 8;
    bool whole = aligned && i0 + TILE <= m && j0 + TILE <= n; /* the same for the whole block */
    if (whole) {
        float4 v = *reinterpret_cast<const float4 *>(in + (size_t)(i0 + r) * n + j0 + 4 * c);
        tile[r][4 * c] = v.x, tile[r][4 * c + 1] = v.y, tile[r][4 * c + 2] = v.z, tile[r][4 * c + 3] = v.w;
    } else {
        for (int q = 0; q < 4; q++)
            if (i0 + r < m && j0 + 4 * c + q < n) tile[r][4 * c + q] = in[(size_t)(i0 + r) * n + j0 + 4 * c + q];
    }
    __syncthreads();
    if (whole) {
        float4 v = make_float4(tile[4 * c][r], tile[4 * c + 1][r], tile[4 * c + 2][r], tile[4 * c + 3][r]);
        *reinterpret_cast<float4 *>(out + (size_t)(j0 + r) * m + i0 + 4 * c) = v;
    } else {
        for (int q = 0; q < 4; q++)
            if (j0 + r < n && i0 + 4 * c + q < m) out[(size_t)(j0 + r) * m + i0 + 4 * c + q] = tile[4 * c + q][r];
    }
}

} // namespace

extern "C" void transpose_naive(int m, int n, const float *in, float *out)
{
    naive_kernel<<<tiles(m, n), dim3(TILE, ROWS)>>>(m, n, in, out);
}

extern "C" void transpose_tiled(int m, int n, const float *in, float *out)
{
    tile_kernel<0, false><<<tiles(m, n), dim3(TILE, ROWS)>>>(m, n, in, out);
}

extern "C" void transpose_padded(int m, int n, const float *in, float *out)
{
    tile_kernel<1, false><<<tiles(m, n), dim3(TILE, ROWS)>>>(m, n, in, out);
}

extern "C" void transpose_swizzled(int m, int n, const float *in, float *out)
{
    tile_kernel<0, true><<<tiles(m, n), dim3(TILE, ROWS)>>>(m, n, in, out);
}

extern "C" void transpose_vectorized(int m, int n, const float *in, float *out)
{
    bool aligned = m % 4 == 0 && n % 4 == 0 && reinterpret_cast<uintptr_t>(in) % 16 == 0 &&
                   reinterpret_cast<uintptr_t>(out) % 16 == 0;
    vector_kernel<<<tiles(m, n), TILE * TILE / 4>>>(m, n, in, out, aligned);
}
