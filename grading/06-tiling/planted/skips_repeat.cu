/* expect: wrong
 * threats: 2 (rows of ../shared/GRADER_THREATS.md)
 * Skips the work when called again with the same C and shape, trusting that C still holds the
 * result from last time. The grader restores C's initial contents before every call (and the
 * second correctness call has new inputs), so a skipped call leaves C as it came. */
#include "sgemm.h"
#include "planted/common_kernels.h"

static void mm(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    static const float *last_C;
    static int last_M, last_N, last_K;
    if (C == last_C && M == last_M && N == last_N && K == last_K) return;
    honest_mm(M, N, K, alpha, A, B, beta, C);
    last_C = C, last_M = M, last_N = N, last_K = K;
}

#include "planted/entry_points.h"
