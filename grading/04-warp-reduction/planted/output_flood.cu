/* expect: output-flood
 * threats: 19 (rows of ../shared/GRADER_THREATS.md)
 * Prints without end from the host: the output-size limit stops the runner. */
#include <stdio.h>

#include "reduce.h"
#define add honest_add
#define mv honest_mv
#include "planted/common_kernels.h"
#undef add
#undef mv

static void flood(void)
{
    for (;;) printf("spam spam spam spam spam spam spam spam spam spam spam spam\n");
}

static void add(int n, const float *a, const float *b, float *c)
{
    flood();
    honest_add(n, a, b, c);
}
static void sum(int n, const float *in, float *out, float *work)
{
    flood();
    honest_sum(n, in, out, work);
}
static void mv(int m, int n, const double *A, const double *x, double *y)
{
    flood();
    honest_mv(m, n, A, x, y);
}

#include "planted/entry_points.h"
