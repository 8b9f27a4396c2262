/* expect: technique in register_2d
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * A stage skipped: `register_2d` runs stage 4's code, a 64 x 64 tile of C a block and 8 rows of one
 * column a thread. Right at every size, and on an H200 at 31% of cuBLAS, over `register_2d`'s 25%;
 * each value of B it loads feeds 8 multiply-adds but each value of A only one (a 1D tile), and a
 * 2D tile, which reuses both, is what the stage teaches. */
#include "sgemm.h"
#include <cuda_runtime.h>

static __global__ void __launch_bounds__(512)
    column_tiles(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    __shared__ float As[64][8], Bs[8][64];
    int t = threadIdx.x, bm = blockIdx.y * 64, bn = blockIdx.x * 64, tc = t % 64, tr = t / 64 * 8;
    int ar = t / 8, ac = t % 8, br = t / 64, bc = t % 64;
    float acc[8] = {};
    for (int k0 = 0; k0 < K; k0 += 8) {
        As[ar][ac] = bm + ar < M && k0 + ac < K ? A[(size_t)(bm + ar) * K + k0 + ac] : 0.0f;
        Bs[br][bc] = k0 + br < K && bn + bc < N ? B[(size_t)(k0 + br) * N + bn + bc] : 0.0f;
        __syncthreads();
        for (int p = 0; p < 8; p++) {
            float b = Bs[p][tc];
#pragma unroll
            for (int i = 0; i < 8; i++) acc[i] += As[tr + i][p] * b;
        }
        __syncthreads();
    }
    for (int i = 0; i < 8; i++) {
        size_t row = bm + tr + i, col = bn + tc;
        if (row < (size_t)M && col < (size_t)N)
            C[row * N + col] = beta == 0.0f ? alpha * acc[i] : alpha * acc[i] + beta * C[row * N + col];
    }
}

static void mm(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    column_tiles<<<dim3((N + 63) / 64, (M + 63) / 64), 512>>>(M, N, K, alpha, A, B, beta, C);
}

#include "planted/entry_points.h"
