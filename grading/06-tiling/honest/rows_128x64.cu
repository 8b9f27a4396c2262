/* honest: other block shapes again: x down 32 rows and 4 columns (naive), one-dimensional
 * 128-thread blocks along a row (coalesced), a 16 x 32 tile of C with k steps of 32 (shared
 * memory), 128 x 64 block tiles for the 1D (16 rows a thread) and 2D (8 x 8 a thread, 128
 * threads) register tiling, and a 64 x 128 x 16 vectorised tile of 128 threads (the quads of
 * tiles_64x128.cu, with a deeper k step and half the rows).
 * A correct submission written differently from the reference: the grader must pass it.
 * Not run on a GPU by its author: written to be clearly correct; the vectorised stage is the
 * one whose speed (60% of cuBLAS required) is least certain. */
#include "sgemm.h"

#include <cuda_runtime.h>
#include <stdint.h>

static __host__ __device__ int up(int a, int b) { return (a + b - 1) / b; }

/* alpha acc + beta c, not reading c when beta is 0 (C may then hold garbage: cuBLAS's rule). */
static __device__ __forceinline__ float result(float alpha, float acc, float beta, const float *c)
{
    return beta == 0.0f ? alpha * acc : alpha * acc + beta * *c;
}

/* ================================================================ naive: x down 32 rows, 4 columns */

static __global__ void naive_kernel(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    int row = blockIdx.x * 32 + threadIdx.x, col = blockIdx.y * 4 + threadIdx.y;
    if (row >= M || col >= N) return;
    float acc = 0.0f;
    for (int p = 0; p < K; p++) acc += A[(size_t)row * K + p] * B[(size_t)p * N + col];
    float *c = C + (size_t)row * N + col;
    *c = result(alpha, acc, beta, c);
}

extern "C" void sgemm_naive(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    naive_kernel<<<dim3(up(M, 32), up(N, 4)), dim3(32, 4)>>>(M, N, K, alpha, A, B, beta, C);
}

/* ================================================================ coalesced: 128 threads along a row */

/* A grid of (N / 128) x rows blocks, each block stepping down the rows by gridDim.y, so that
 * any M fits the grid's height limit. */
static __global__ void coalesced_kernel(int M, int N, int K, float alpha, const float *A, const float *B, float beta,
                                        float *C)
{
    int col = blockIdx.x * 128 + threadIdx.x;
    if (col >= N) return;
    for (int row = blockIdx.y; row < M; row += gridDim.y) {
        const float *a = A + (size_t)row * K;
        float acc = 0.0f;
        for (int p = 0; p < K; p++) acc += a[p] * B[(size_t)p * N + col];
        float *c = C + (size_t)row * N + col;
        *c = result(alpha, acc, beta, c);
    }
}

extern "C" void sgemm_coalesced(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    coalesced_kernel<<<dim3(up(N, 128), M < 65535 ? M : 65535), 128>>>(M, N, K, alpha, A, B, beta, C);
}

/* ================================================================ shared memory: 16 x 32 of C, k steps of 32 */

#define S_ROWS 16
#define S_COLS 32
#define S_K 32

static __global__ void __launch_bounds__(S_ROWS *S_COLS)
    smem_kernel(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    __shared__ float As[S_ROWS][S_K], Bs[S_K][S_COLS];
    int tx = threadIdx.x, ty = threadIdx.y; /* 32 x 16 threads */
    int row = blockIdx.y * S_ROWS + ty, col = blockIdx.x * S_COLS + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += S_K) {
        As[ty][tx] = row < M && k0 + tx < K ? A[(size_t)row * K + k0 + tx] : 0.0f;
#pragma unroll
        for (int h = 0; h < S_K / S_ROWS; h++) { /* B's 32 rows, two a thread */
            int r = ty + h * S_ROWS;
            Bs[r][tx] = k0 + r < K && col < N ? B[(size_t)(k0 + r) * N + col] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int p = 0; p < S_K; p++) acc += As[ty][p] * Bs[p][tx];
        __syncthreads();
    }
    if (row < M && col < N) {
        float *c = C + (size_t)row * N + col;
        *c = result(alpha, acc, beta, c);
    }
}

extern "C" void sgemm_smem_tiled(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    smem_kernel<<<dim3(up(N, S_COLS), up(M, S_ROWS)), dim3(S_COLS, S_ROWS)>>>(M, N, K, alpha, A, B, beta, C);
}

/* ================================================================ 1D register tiles: 128 x 64, 16 rows a thread */

#define C_BM 128
#define C_BN 64
#define C_BK 8
#define C_TM 16
#define C_THREADS (C_BM * C_BN / C_TM) /* 512 */

static __global__ void __launch_bounds__(C_THREADS)
    coarsened_kernel(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    __shared__ float As[C_BM][C_BK], Bs[C_BK][C_BN];
    int tid = threadIdx.x, bm = blockIdx.y * C_BM, bn = blockIdx.x * C_BN;
    int tc = tid % C_BN, tr = tid / C_BN * C_TM; /* a warp shares tr: the As reads broadcast */
    float acc[C_TM] = {};
    for (int k0 = 0; k0 < K; k0 += C_BK) {
#pragma unroll
        for (int l = 0; l < C_BM * C_BK / C_THREADS; l++) { /* A's 1024, two a thread */
            int e = tid + l * C_THREADS, r = e / C_BK, c = e % C_BK;
            As[r][c] = bm + r < M && k0 + c < K ? A[(size_t)(bm + r) * K + k0 + c] : 0.0f;
        }
        { /* B's 512, one a thread */
            int r = tid / C_BN, c = tid % C_BN;
            Bs[r][c] = k0 + r < K && bn + c < N ? B[(size_t)(k0 + r) * N + bn + c] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int p = 0; p < C_BK; p++) {
            float b = Bs[p][tc];
#pragma unroll
            for (int i = 0; i < C_TM; i++) acc[i] += As[tr + i][p] * b;
        }
        __syncthreads();
    }
    int col = bn + tc;
#pragma unroll
    for (int i = 0; i < C_TM; i++) {
        int row = bm + tr + i;
        if (row < M && col < N) {
            float *c = C + (size_t)row * N + col;
            *c = result(alpha, acc[i], beta, c);
        }
    }
}

extern "C" void sgemm_coarsened(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    coarsened_kernel<<<dim3(up(N, C_BN), up(M, C_BM)), C_THREADS>>>(M, N, K, alpha, A, B, beta, C);
}

/* ================================================================ 2D register tiles: 128 x 64, 8 x 8 a thread */

#define R_BM 128
#define R_BN 64
#define R_BK 8
#define R_THREADS (R_BM * R_BN / 64) /* 128: 16 rows x 8 columns of threads */
#include "honest/register_2d.h"

extern "C" void sgemm_register_2d(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    register_2d_kernel<<<dim3(up(N, R_BN), up(M, R_BM)), R_THREADS>>>(M, N, K, alpha, A, B, beta, C);
}

/* ================================================================ vectorised */

/* The kernel and its layout: honest/vec_tile.h. Here 64 x 128 x 16 with 128 threads. */
#include "honest/vec_tile.h"

extern "C" void sgemm_vectorized(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    dim3 grid(up(N, 128), up(M, 64));
    if (K % 4 == 0 && N % 4 == 0 && aligned16(A) && aligned16(B) && aligned16(C))
        vec_kernel<64, 128, 16, true><<<grid, 128>>>(M, N, K, alpha, A, B, beta, C);
    else
        vec_kernel<64, 128, 16, false><<<grid, 128>>>(M, N, K, alpha, A, B, beta, C);
}
