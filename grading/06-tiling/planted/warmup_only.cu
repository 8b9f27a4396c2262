/* expect: wrong
 * threats: 26 (rows of ../shared/GRADER_THREATS.md)
 * emulate: large (right at make emulate's sizes: it cheats only after the first call at the timed 4096^3)
 * Honest on every correctness case and on the first call of the timed 4096^3 case (the
 * warm-up); on the timed calls after it, computes only the top half of C. The grader checks the
 * output of every timed call, not only the warm-up's. */
#include "sgemm.h"
#include "planted/common_kernels.h"

static void mm(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    static int large_calls;
    int cheat = (double)M * N * K >= 1e10 && large_calls++ > 0; /* no correctness case is near 10^10 */
    honest_mm(cheat ? M / 2 : M, N, K, alpha, A, B, beta, C);
}

#include "planted/entry_points.h"
