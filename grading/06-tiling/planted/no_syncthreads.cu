/* expect: wrong
 * threats: 22 (rows of ../shared/GRADER_THREATS.md)
 * The 32 x 32 shared-memory tiling with both __syncthreads() left out: the 32 warps of a block
 * read tile elements other warps have not loaded yet, and overwrite the tile while others still
 * read it. Right only when the warps happen to keep in step, as they may for one tiny tile;
 * at 1000^3 and 4096^3 they never all do. */
#include "sgemm.h"

#define T 32

static __global__ void unsynced(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    __shared__ float a[T][T], b[T][T];
    int row = blockIdx.y * T + threadIdx.y, col = blockIdx.x * T + threadIdx.x;
    float acc = 0.0f;
    for (int p0 = 0; p0 < K; p0 += T) {
        a[threadIdx.y][threadIdx.x] = row < M && p0 + threadIdx.x < K ? A[(size_t)row * K + p0 + threadIdx.x] : 0.0f;
        b[threadIdx.y][threadIdx.x] = p0 + threadIdx.y < K && col < N ? B[(size_t)(p0 + threadIdx.y) * N + col] : 0.0f;
        /* __syncthreads() belongs here: the tile is complete only when every warp has stored */
        for (int p = 0; p < T; p++) acc += a[threadIdx.y][p] * b[p][threadIdx.x];
        /* and here: no warp may overwrite the tile while another still reads it */
    }
    if (row < M && col < N) C[(size_t)row * N + col] = alpha * acc + beta * C[(size_t)row * N + col];
}

static void mm(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    unsynced<<<dim3((N + T - 1) / T, (M + T - 1) / T), dim3(T, T)>>>(M, N, K, alpha, A, B, beta, C);
}

#include "planted/entry_points.h"
