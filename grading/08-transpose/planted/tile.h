/* tile.h - the shared tile lab-08 plants are built on: 32 x 32, moved by 32 x 8 threads four rows
 * each, bounds-checked. Rows are 32 + PLANT_PAD floats apart: 1 (the default) is stage 3's padded
 * tile, 0 stage 2's, whose column reads are bank conflicts. plant_tile(m, n, in, out) launches it. */
#ifndef PLANT_PAD
#define PLANT_PAD 1
#endif

static __global__ void plant_tile_kernel(int m, int n, const float *__restrict__ in, float *__restrict__ out)
{
    __shared__ float tile[32][32 + PLANT_PAD];
    int i0 = blockIdx.y * 32, j0 = blockIdx.x * 32, tx = threadIdx.x;
    for (int r = threadIdx.y; r < 32; r += 8)
        if (i0 + r < m && j0 + tx < n) tile[r][tx] = in[(size_t)(i0 + r) * n + j0 + tx];
    __syncthreads();
    for (int r = threadIdx.y; r < 32; r += 8)
        if (j0 + r < n && i0 + tx < m) out[(size_t)(j0 + r) * m + i0 + tx] = tile[tx][r];
}

static void plant_tile(int m, int n, const float *in, float *out)
{
    plant_tile_kernel<<<dim3((n + 31) / 32, (m + 31) / 32), dim3(32, 8)>>>(m, n, in, out);
}
