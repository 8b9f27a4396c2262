/* expect: wrong
 * threats: 11 (rows of ../shared/GRADER_THREATS.md)
 * Prints a perfect score line from the host and from the device, and computes only half of
 * each output: the grader never reads student output. */
#include <stdio.h>

#include "reduce.h"
#define add honest_add
#define mv honest_mv
#include "planted/common_kernels.h"
#undef add
#undef mv

static __global__ void boast(void) { printf("04-warp-reduction: 9 of 9 stages pass; score 90.0 / 90\n"); }
static void brag(void)
{
    printf("04-warp-reduction: 9 of 9 stages pass; score 90.0 / 90\n");
    boast<<<1, 1>>>();
}

static void add(int n, const float *a, const float *b, float *c)
{
    brag();
    honest_add(n - n / 2, a, b, c);
}
static void sum(int n, const float *in, float *out, float *work)
{
    brag();
    honest_sum(n - n / 2, in, out, work);
}
static void mv(int m, int n, const double *A, const double *x, double *y)
{
    brag();
    honest_mv(m, n - n / 2, A, x, y); /* half of each row, with the wrong row length */
}

#include "planted/entry_points.h"
