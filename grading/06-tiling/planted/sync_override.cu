/* expect: audit
 * threats: 8 (rows of ../shared/GRADER_THREATS.md)
 * Defines cudaEventSynchronize, which the runner waits on before reading its end event, to
 * return at once. The audit allows only the lab's functions to be global. */
#include "sgemm.h"
#include "planted/common_kernels.h"

extern "C" cudaError_t cudaEventSynchronize(cudaEvent_t event)
{
    (void)event;
    return cudaSuccess;
}

static void mm(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    honest_mm(M, N, K, alpha, A, B, beta, C);
}

#include "planted/entry_points.h"
