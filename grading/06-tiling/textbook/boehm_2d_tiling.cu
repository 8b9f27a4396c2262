/* textbook: register_2d
 * 2D blocktiling as Simon Boehm's SGEMM worklog teaches it ("How to Optimize a CUDA Matmul Kernel
 * for cuBLAS-like Performance", 2022, kernel 5: BM = BN = 128, BK = 8, TM = TN = 8): a block of
 * BM * BN / (TM * TN) = 256 threads, __launch_bounds__(256, 1), computes a 128 x 128 tile of C,
 * blockIdx.y its rows and blockIdx.x its columns; thread t computes the 8 x 8 results at rows
 * (t / 16) * 8 + 0..7 and columns (t % 16) * 8 + 0..7 of the tile, kept in registers. Per step of
 * BK = 8 along K the 256 threads copy A's 128 x 8 tile (8 threads across a row, 32 rows a pass,
 * 4 passes) and B's 8 x 128 tile (128 threads across a row, 2 rows a pass, 4 passes) into shared
 * memory, A row-major as in global memory; then for each of the 8 k: 8 values of A (a column of
 * the thread's rows) and 8 of B (a row of its columns) into register arrays, and their outer
 * product, 64 multiply-adds. The launcher takes the worklog runner's shape: 128 x 128 tiles when
 * M >= 128 and N >= 128, else the same kernel with BM = BN = 64 (64 threads; its loops load the
 * tiles in 8 and 8 passes).
 * Added for the lab's interface: the worklog's kernel assumes M, N and K are multiples of its
 * tiles (its runner's 64 x 64 shape is described there as a stopgap for the missing bounds
 * tests, and is kept here unchanged). Here the copies put zeros wherever a tile hangs past A or B
 * (all threads still reach both barriers), and each result is stored only if it lies inside C;
 * C is not read when beta == 0 (sgemm.h). Graded on `register_2d` only. */
#include "sgemm.h"

#include <cuda_runtime.h>

#define BK 8
#define TM 8
#define TN 8

template <int BM, int BN>
static __global__ void __launch_bounds__((BM * BN) / (TM * TN), 1)
    blocktile_2d_kernel(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    constexpr int THREADS = (BM * BN) / (TM * TN);
    constexpr int A_ROWS_PER_PASS = THREADS / BK, B_ROWS_PER_PASS = THREADS / BN;
    __shared__ float As[BM * BK];
    __shared__ float Bs[BK * BN];
    int tileRow = blockIdx.y, tileCol = blockIdx.x;
    int rowsLeft = M - tileRow * BM, colsLeft = N - tileCol * BN;

    /* this thread's 8 x 8: rows row0 .. row0 + 7, columns col0 .. col0 + 7 of the tile */
    int row0 = threadIdx.x / (BN / TN) * TM, col0 = threadIdx.x % (BN / TN) * TN;
    /* where its copies start in A's tile and B's; they repeat every *_ROWS_PER_PASS rows */
    int aRow = threadIdx.x / BK, aCol = threadIdx.x % BK;
    int bRow = threadIdx.x / BN, bCol = threadIdx.x % BN;

    A += tileRow * BM * K;
    B += tileCol * BN;
    C += tileRow * BM * N + tileCol * BN;

    float results[TM * TN] = {0.0f};
    float aReg[TM] = {0.0f}, bReg[TN] = {0.0f};
    for (int k0 = 0; k0 < K; k0 += BK) {
        for (int off = 0; off < BM; off += A_ROWS_PER_PASS) {
            int r = aRow + off;
            As[r * BK + aCol] = r < rowsLeft && k0 + aCol < K ? A[r * K + aCol] : 0.0f;
        }
        for (int off = 0; off < BK; off += B_ROWS_PER_PASS) {
            int r = bRow + off;
            Bs[r * BN + bCol] = k0 + r < K && bCol < colsLeft ? B[r * N + bCol] : 0.0f;
        }
        __syncthreads();
        A += BK;
        B += BK * N;
        for (int p = 0; p < BK; ++p) {
            for (int i = 0; i < TM; ++i) aReg[i] = As[(row0 + i) * BK + p];
            for (int j = 0; j < TN; ++j) bReg[j] = Bs[p * BN + col0 + j];
            for (int i = 0; i < TM; ++i)
                for (int j = 0; j < TN; ++j) results[i * TN + j] += aReg[i] * bReg[j];
        }
        __syncthreads();
    }
    for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
            if (row0 + i < rowsLeft && col0 + j < colsLeft) {
                float *out = &C[(row0 + i) * N + col0 + j];
                float v = results[i * TN + j];
                *out = beta == 0.0f ? alpha * v : alpha * v + beta * *out;
            }
}

template <int BM, int BN>
static void launch_2d(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM), block((BM * BN) / (TM * TN));
    blocktile_2d_kernel<BM, BN><<<grid, block>>>(M, N, K, alpha, A, B, beta, C);
}

extern "C" void sgemm_naive(int, int, int, float, const float *, const float *, float, float *) {}
extern "C" void sgemm_coalesced(int, int, int, float, const float *, const float *, float, float *) {}
extern "C" void sgemm_smem_tiled(int, int, int, float, const float *, const float *, float, float *) {}
extern "C" void sgemm_coarsened(int, int, int, float, const float *, const float *, float, float *) {}
extern "C" void sgemm_register_2d(int M, int N, int K, float alpha, const float *A, const float *B, float beta,
                                  float *C)
{
    if (M >= 128 && N >= 128)
        launch_2d<128, 128>(M, N, K, alpha, A, B, beta, C);
    else
        launch_2d<64, 64>(M, N, K, alpha, A, B, beta, C);
}
extern "C" void sgemm_vectorized(int, int, int, float, const float *, const float *, float, float *) {}
