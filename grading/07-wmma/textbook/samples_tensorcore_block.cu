/* textbook: block_tile
 * NVIDIA cuda-samples cudaTensorCoreGemm, kernel compute_gemm, with its shared staging as the
 * sample writes it but without the skew (SKEW_HALF = 0): a CTA of 8 warps (256 threads) per
 * 128 x 128 tile of C, warps as 4 x 2 of 32 x 64 (2 x 4 fragments), K in chunks of 64 (CHUNK_K =
 * 4), warps 0-3 copying A's chunk and 4-7 B's with int4 loads and stores, the tile written out
 * through shared memory, one persistent CTA a multiprocessor (textbook/samples_tensorcore.h).
 * Added for the lab's interface: B row-major (its chunk kept as 64 rows of 128 halves, row_major
 * matrix_b fragments), beta = 0 (accumulators zeroed, C never read), M, N, K at run time and
 * multiples of 16 only (zero int4 chunks past the edges, the tile walk rounded up to whole CTA
 * tiles, stores inside C only), the multiprocessor count by cudaDeviceGetAttribute. Graded on
 * `block_tile` only (the other stages launch nothing): the study of what a pass certifies grades
 * it, and a technique-correct textbook kernel must pass. */
#include "wmma_gemm.h"

#include "textbook/samples_tensorcore.h"

extern "C" void wmma_warp_tile(int, int, int, const lab_half *, const lab_half *, float *) {}
extern "C" void wmma_block_tile(int M, int N, int K, const lab_half *A, const lab_half *B, float *C)
{
    samples_tensorcore_gemm<0>(M, N, K, A, B, C);
}
extern "C" void wmma_padded(int, int, int, const lab_half *, const lab_half *, float *) {}
extern "C" void wmma_pipelined(int, int, int, const lab_half *, const lab_half *, float *) {}
