/* expect: wrong
 * threats: 26 (rows of ../shared/GRADER_THREATS.md)
 * emulate: large (right at make emulate's sizes: it cheats only on repeated calls at the timed sizes)
 * Honest on every correctness case and on the first call of each large timed case (the
 * warm-up); on the timed calls after it, computes only the first half of the output (or of the
 * sum). The grader checks the output of every timed call, not only the warm-up's. */
#include "reduce.h"
#define add honest_add
#define mv honest_mv
#include "planted/common_kernels.h"
#undef add
#undef mv

/* The timed sizes are 2^27 (vector add), 2^28 (sum) and 16384^2 (matvec); no correctness case
 * comes near 2^26. After the first large call, "the timed ones", half. */
static bool cheat(double size)
{
    static int large_calls;
    return size >= (double)(1 << 26) && large_calls++ > 0;
}

static void add(int n, const float *a, const float *b, float *c) { honest_add(cheat(n) ? n / 2 : n, a, b, c); }
static void sum(int n, const float *in, float *out, float *work) { honest_sum(cheat(n) ? n / 2 : n, in, out, work); }
static void mv(int m, int n, const double *A, const double *x, double *y)
{
    honest_mv(cheat((double)m * n) ? m / 2 : m, n, A, x, y);
}

#include "planted/entry_points.h"
