/* textbook: wgmma
 * Stage 1's technique in its smallest honest form: one 64 x 128 tile of C a warpgroup, plain
 * 16-byte copies into the swizzled tiles, then the MMAs (the kernels of planted/kernels.h, which the
 * planted stage-skips run in later stages). Graded on `wgmma`, where it must pass: 34% of cuBLAS on
 * an H200 against the line's 25%. Its other stages are the threshold study's readings of each
 * technique before tiles, depth and a second consumer are chosen, and are below their lines by
 * design (docs/BENCHMARKS.md, the thirty-sixth session): stage 2 the tiles brought by TMA into a
 * single stage, the block waiting on its mbarrier (no ring: about 52%); stage 3 a producer
 * warpgroup (setmaxnreg down to 40) and one consumer (up to 232) over a ring of two (34%); stage
 * 4 stage 3's kernel, which its technique check refuses (no cluster, no multicast). */
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
