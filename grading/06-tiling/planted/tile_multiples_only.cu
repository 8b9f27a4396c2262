/* expect: crash
 * threats: 23 (rows of ../shared/GRADER_THREATS.md)
 * A correct 32 x 32 shared-memory tiling, but only for sizes that are multiples of the tile: no
 * bounds checks, and the grid rounds down. Fine at 4096; below one tile (1 x 1 x 1, 17^3) the
 * grid has no blocks and the launch fails ("invalid configuration argument"); at 1000 the last
 * rows would never be written. */
#include "sgemm.h"

#define T 32

static __global__ void tiled(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    __shared__ float a[T][T], b[T][T];
    int row = blockIdx.y * T + threadIdx.y, col = blockIdx.x * T + threadIdx.x;
    float acc = 0;
    for (int p0 = 0; p0 < K; p0 += T) {
        a[threadIdx.y][threadIdx.x] = A[(size_t)row * K + p0 + threadIdx.x];
        b[threadIdx.y][threadIdx.x] = B[(size_t)(p0 + threadIdx.y) * N + col];
        __syncthreads();
        for (int p = 0; p < T; p++) acc += a[threadIdx.y][p] * b[p][threadIdx.x];
        __syncthreads();
    }
    C[(size_t)row * N + col] = alpha * acc + beta * C[(size_t)row * N + col];
}

static void mm(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    tiled<<<dim3(N / T, M / T), dim3(T, T)>>>(M, N, K, alpha, A, B, beta, C);
}

#include "planted/entry_points.h"
