/* textbook: tiled
 * The tiled convolution as the textbooks first teach it: a block has a thread for every pixel of
 * its input tile, halo included (32 x 32 threads), each loading one pixel into shared memory, zero
 * outside the image; after the barrier only the threads of the inner (32 - (K - 1))^2 output tile
 * compute, the filter in __constant__ memory. The halo threads then idle, the textbooks' first
 * price for simple loads. Graded on `tiled` only: the study of what a pass certifies grades it,
 * and a technique-correct textbook kernel must pass. */
#include "conv.h"

#include <cuda_runtime.h>

#define IN_TILE 32

static __constant__ float taps[CONV_MAX_K * CONV_MAX_K];

static __global__ void halo_threads(int m, int n, int K, const float *in, float *out)
{
    __shared__ float tile[IN_TILE][IN_TILE];
    int r = K / 2, out_tile = IN_TILE - (K - 1), tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * out_tile + ty - r, col = blockIdx.x * out_tile + tx - r; /* this thread's pixel */
    tile[ty][tx] = row >= 0 && row < m && col >= 0 && col < n ? in[(size_t)row * n + col] : 0.0f;
    __syncthreads();
    int oy = ty - r, ox = tx - r; /* this thread's output within the output tile, if any */
    if (oy < 0 || oy >= out_tile || ox < 0 || ox >= out_tile || row >= m || col >= n) return;
    float acc = 0.0f;
    for (int a = 0; a < K; a++)
        for (int b = 0; b < K; b++) acc += taps[a * K + b] * tile[oy + a][ox + b];
    out[(size_t)row * n + col] = acc;
}

static void cv(int m, int n, int K, const float *in, const float *filter, float *out)
{
    cudaMemcpyToSymbol(taps, filter, sizeof(float) * K * K, 0, cudaMemcpyDeviceToDevice);
    int out_tile = IN_TILE - (K - 1);
    dim3 grid((unsigned)((n + out_tile - 1) / out_tile), (unsigned)((m + out_tile - 1) / out_tile));
    halo_threads<<<grid, dim3(IN_TILE, IN_TILE)>>>(m, n, K, in, out);
}

#include "planted/entry_points.h"
