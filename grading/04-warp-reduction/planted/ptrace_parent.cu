/* expect: forbidden-syscall
 * threats: 29 (rows of ../shared/GRADER_THREATS.md)
 * Tries to attach to its parent, the scorer, with a raw ptrace system call, to rewrite its
 * verdicts in memory. The system-call filter, installed once the GPU is initialised, kills it. */
#include "reduce.h"
#define add honest_add
#define mv honest_mv
#include "planted/common_kernels.h"
#undef add
#undef mv

static void attach(void)
{
    long ppid, r;
    __asm__ volatile("syscall" : "=a"(ppid) : "a"(110) : "rcx", "r11", "memory"); /* getppid() */
    register long addr __asm__("rdx") = 0;
    register long data __asm__("r10") = 0;
    __asm__ volatile("syscall" : "=a"(r) : "a"(101), "D"(16), "S"(ppid), "r"(addr), "r"(data) : "rcx", "r11", "memory"); /* PTRACE_ATTACH */
    (void)r;
}

static void add(int n, const float *a, const float *b, float *c)
{
    attach();
    honest_add(n, a, b, c);
}
static void sum(int n, const float *in, float *out, float *work)
{
    attach();
    honest_sum(n, in, out, work);
}
static void mv(int m, int n, const double *A, const double *x, double *y)
{
    attach();
    honest_mv(m, n, A, x, y);
}

#include "planted/entry_points.h"
