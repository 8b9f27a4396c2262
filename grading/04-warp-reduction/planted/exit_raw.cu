/* expect: no-record
 * threats: 10 (rows of ../shared/GRADER_THREATS.md)
 * Launches the right kernels, then ends the process with status 0 through a raw exit_group
 * system call (exit is not an allowed call): no result record reaches the grader, and a test
 * with no record fails whatever the exit status. */
#include "reduce.h"
#define add honest_add
#define mv honest_mv
#include "planted/common_kernels.h"
#undef add
#undef mv

static void leave(void) { __asm__ volatile("syscall" : : "a"(231), "D"(0) : "rcx", "r11", "memory"); }

static void add(int n, const float *a, const float *b, float *c)
{
    honest_add(n, a, b, c);
    leave();
}
static void sum(int n, const float *in, float *out, float *work)
{
    honest_sum(n, in, out, work);
    leave();
}
static void mv(int m, int n, const double *A, const double *x, double *y)
{
    honest_mv(m, n, A, x, y);
    leave();
}

#include "planted/entry_points.h"
