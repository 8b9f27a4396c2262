/* expect: audit
 * threats: 8 (rows of ../shared/GRADER_THREATS.md)
 * Defines cudaEventElapsedTime, the call the runner times with, so that every call would seem
 * to take a microsecond. The audit allows only the lab's functions to be global. */
#include "reduce.h"
#include "planted/common_kernels.h"

extern "C" cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
    (void)start, (void)end;
    *ms = 1e-3f;
    return cudaSuccess;
}

static void sum(int n, const float *in, float *out, float *work) { honest_sum(n, in, out, work); }

#include "planted/entry_points.h"
