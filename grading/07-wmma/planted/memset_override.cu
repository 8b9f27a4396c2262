/* expect: audit
 * threats: 8, 27 (rows of ../shared/GRADER_THREATS.md)
 * Defines cudaMemset, which the runner uses to flush the L2 cache before every timed call, to
 * do nothing: the tiles of A and B left in L2 by the last call would make the next one look
 * faster. The audit allows only the lab's functions to be global (kernels may still call the
 * real cudaMemset: it is on the list of allowed calls). */
#include "wmma_gemm.h"
#include "planted/common_kernels.h"

extern "C" cudaError_t cudaMemset(void *p, int value, size_t bytes)
{
    (void)p, (void)value, (void)bytes;
    return cudaSuccess;
}

static void mm(int M, int N, int K, const lab_half *A, const lab_half *B, float *C) { honest_mm(M, N, K, A, B, C); }

#include "planted/entry_points.h"
