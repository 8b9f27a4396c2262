/* expect: forbidden-syscall
 * threats: 18 (rows of ../shared/GRADER_THREATS.md)
 * Forks through a raw system call (fork is not an allowed call; CUDA after fork is undefined
 * anyway): the runner's system-call filter allows threads, which the CUDA driver needs, but
 * never a new process, and kills it. */
#include "reduce.h"
#define add honest_add
#define mv honest_mv
#include "planted/common_kernels.h"
#undef add
#undef mv

static void spawn(void)
{
    long r;
    __asm__ volatile("syscall" : "=a"(r) : "a"(57) : "rcx", "r11", "memory"); /* fork() */
    if (r == 0) __asm__ volatile("syscall" : : "a"(231), "D"(0) : "rcx", "r11", "memory"); /* a child: exit */
}

static void add(int n, const float *a, const float *b, float *c)
{
    spawn();
    honest_add(n, a, b, c);
}
static void sum(int n, const float *in, float *out, float *work)
{
    spawn();
    honest_sum(n, in, out, work);
}
static void mv(int m, int n, const double *A, const double *x, double *y)
{
    spawn();
    honest_mv(m, n, A, x, y);
}

#include "planted/entry_points.h"
