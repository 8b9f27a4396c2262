/* expect: input-modified in interleaved,strided,sequential,shuffle,vectorized
 * threats: 15, 26 (rows of ../shared/GRADER_THREATS.md)
 * emulate: large (right at make emulate's sizes: it changes its input only at the timed size, 2^27)
 * The in-place tree of in_place_tree.cu, but only at the timed size (n of 2^27 and more): every
 * correctness case sees honest code that leaves its input alone, and the timed calls, whose
 * inputs are made on the device from a seed and come back only as digests, see the input
 * overwritten. The sum is right every time; the digest of the input after the last call is not.
 * (Not yet run on a GPU: written 2026-11-25 after the device time of that session was spent.) */
#include "reduce.h"
#define add honest_add
#define mv honest_mv
#include "planted/common_kernels.h"
#undef add
#undef mv

#include "planted/in_place.h"

static void add(int n, const float *a, const float *b, float *c) { honest_add(n, a, b, c); }
static void sum(int n, const float *in, float *out, float *work)
{
    if (n < (1 << 27)) {
        honest_sum(n, in, out, work);
        return;
    }
    in_place_sum(n, in, out);
}
static void mv(int m, int n, const double *A, const double *x, double *y) { honest_mv(m, n, A, x, y); }

#include "planted/entry_points.h"
