/* expect: wrong
 * threats: 26 (rows of ../shared/GRADER_THREATS.md)
 * emulate: large (right at make emulate's sizes: it cheats only on repeated calls at the timed 8192^3)
 * Honest on every correctness case and on the first call of the timed 8192^3 case (the
 * warm-up); on the timed calls after it, computes only the top half of C, leaving the rest as
 * the grader poisoned it. The grader checks the output of every timed call. */
#include "wmma_gemm.h"
#include "planted/common_kernels.h"

static void mm(int M, int N, int K, const lab_half *A, const lab_half *B, float *C)
{
    static int large_calls;
    int cheat = (double)M * N * K >= 1e11 && large_calls++ > 0; /* no correctness case is near 10^11 */
    honest_mm(cheat ? M / 2 : M, N, K, A, B, C);
}

#include "planted/entry_points.h"
