/* expect: audit
 * threats: 9, 11 (rows of ../shared/GRADER_THREATS.md)
 * A constructor of its own next to the one nvcc writes to register the kernels: it would run
 * before the runner's main (here printing a fake summary). The audit allows the object's
 * .init_array exactly nvcc's one entry. */
#include <stdio.h>

#include "reduce.h"
#include "planted/common_kernels.h"

__attribute__((constructor)) static void early(void) { printf("04-warp-reduction: 9 of 9 stages pass; score 90.0 / 90\n"); }

static void sum(int n, const float *in, float *out, float *work) { honest_sum(n, in, out, work); }

#include "planted/entry_points.h"
