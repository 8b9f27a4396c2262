/* expect: technique in shuffle
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * A stage skipped: `shuffle` runs stage 4's code, a grid-stride sum then a shared-memory tree with
 * sequential addressing down to its last step. Right at every size, and bound by memory as a
 * shuffle reduction is (30% of the copy on an H100 against `shuffle`'s 15%); it has no warp
 * shuffle, which is what the stage teaches. */
#include "reduce.h"
#define add honest_add
#define mv honest_mv
#include "planted/common_kernels.h"
#undef add
#undef mv

#define PLANT_STAGES "shuffle"

static void sum(int n, const float *in, float *out, float *work) { honest_sum(n, in, out, work); }
static void add(int n, const float *a, const float *b, float *c) { honest_add(n, a, b, c); }
static void mv(int m, int n, const double *A, const double *x, double *y) { honest_mv(m, n, A, x, y); }

#include "planted/entry_points.h"
