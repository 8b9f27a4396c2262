/* textbook: wgmma tma specialised
 * Each stage's technique in its smallest honest form, one 64 x 128 tile of C a consumer warpgroup
 * (the kernels of planted/kernels.h, which the planted stage-skips run in later stages): stage 1
 * plain 16-byte copies into the swizzled tiles, then the MMAs; stage 2 the tiles brought by TMA
 * into a single stage, the block waiting on its mbarrier (no ring: copies and MMAs take turns);
 * stage 3 a producer warpgroup (setmaxnreg down to 40) and one consumer (up to 232) over a ring of
 * two stages with full and empty barriers. Stage 4 runs stage 3's kernel (no cluster, no
 * multicast), which its technique check refuses. For the threshold study: what the techniques
 * give before tiles, depth and a second consumer are chosen (docs/BENCHMARKS.md). */
#include "hopper_gemm.h"
#include "planted/kernels.h"

extern "C" void hopper_wgmma(int M, int N, int K, const lab_half *A, const lab_half *B, float *C) { plain_mm(M, N, K, A, B, C); }
extern "C" void hopper_tma(int M, int N, int K, const lab_half *A, const lab_half *B, float *C) { tma_mm(M, N, K, A, B, C, false); }
extern "C" void hopper_specialised(int M, int N, int K, const lab_half *A, const lab_half *B, float *C)
{
    tma_mm(M, N, K, A, B, C, true);
}
extern "C" void hopper_persistent(int M, int N, int K, const lab_half *A, const lab_half *B, float *C)
{
    tma_mm(M, N, K, A, B, C, true);
}
