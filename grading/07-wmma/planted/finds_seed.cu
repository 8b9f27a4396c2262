/* expect: too-slow in warp_tile
 * threats: 43 (rows of ../shared/GRADER_THREATS.md)
 * Honest (the honest variant's padded WMMA kernel, 64 x 128 x 32 tiles: about 14% of cuBLAS,
 * seven times the stage's 0.02; the shared planted kernel, without tensor cores, is below it),
 * but at the timed 8192^3 it first looks for the seed of the call's A on the stack above its own
 * frame (../plants/seed_probe.h: 256 words, each tried on the GPU as the seed of A's first 16
 * halves) and, where none is, spins on the GPU for 220 ms before computing: three times the
 * longest a call may take and pass (cuBLAS HGEMM at ~750 TFLOP/s: 2 * 8192^3 = 1.10 TFLOP in
 * 1.47 ms; / 0.02 = 73 ms). Where a word is the seed (the tree before 31c6b3c, whose run_timed
 * kept it in a local) it only computes, and passes. runner.c's forget_seed leaves no seed to find:
 * too slow. */
#include "wmma_gemm.h"

#include <cuda_runtime.h>
#include <mma.h>

#include "../plants/seed_probe.h"

using namespace nvcuda;

typedef wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> frag_a;
typedef wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> frag_b;
typedef wmma::fragment<wmma::accumulator, 16, 16, 16, float> frag_c;

#include "honest/wmma_tiles.h"

#define SPIN_NS 220000000ull
#define P_BM 64
#define P_BN 128
#define P_BK 32

/* honest/wmma_64x128.cu's padded stage: four warps of 32 x 64, 16-byte copies, zeros past the
 * matrix. */
static __global__ void __launch_bounds__(128)
    padded_kernel(int M, int N, int K, const __half *A, const __half *B, float *C)
{
    __shared__ __align__(128) __half As[P_BM * (P_BK + PAD)];
    __shared__ __align__(128) __half Bs[P_BK * (P_BN + PAD)];
    int warp = threadIdx.x / 32, row0 = blockIdx.y * P_BM, col0 = blockIdx.x * P_BN;
    int wm = warp / 2 * 32, wn = warp % 2 * 64;
    frag_c acc[2][4];
#pragma unroll
    for (int i = 0; i < 2; i++)
#pragma unroll
        for (int j = 0; j < 4; j++) wmma::fill_fragment(acc[i][j], 0.0f);
    for (int k0 = 0; k0 < K; k0 += P_BK) {
        copy_tile<P_BM, P_BK, 128, false>(As, A, K, row0, k0, M, K);
        copy_tile<P_BK, P_BN, 128, false>(Bs, B, N, k0, col0, K, N);
        __syncthreads();
        multiply<2, 4, P_BK, P_BK + PAD, P_BN + PAD>(acc, As + wm * (P_BK + PAD), Bs + wn);
        __syncthreads();
    }
    store(acc, C, M, N, row0 + wm, col0 + wn);
}

static void mm(int M, int N, int K, const __half *A, const __half *B, float *C)
{
    if (M == 8192 && N == 8192 && K == 8192) /* the timed shape; A varies (lab.c: lo -1, hi 1, quantum 2^-8) */
        seed_probe(__builtin_frame_address(0), A, SEED_PROBE_F16, -1, 1, 0x1p-8, SPIN_NS);
    padded_kernel<<<dim3((N + P_BN - 1) / P_BN, (M + P_BM - 1) / P_BM), 128>>>(M, N, K, A, B, C);
}

#include "planted/entry_points.h"
