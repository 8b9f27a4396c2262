/* expect: forbidden-syscall
 * threats: 40 (rows of ../shared/GRADER_THREATS.md)
 * Makes new machine code once it runs: maps a page read-write, writes a `ret` there, makes the page
 * executable with a raw mprotect and calls it (rewriting the runner's own code would be the same
 * call on its pages). The GPU labs' filter let the driver's mmap and mprotect through unchecked;
 * PROT_EXEC now kills the runner, as in every other lab. */
#include "reduce.h"
#define add honest_add
#define mv honest_mv
#include "planted/common_kernels.h"
#undef add
#undef mv

static long raw6(long nr, long a, long b, long c, long d, long e, long f)
{
    long r;
    register long r10 __asm__("r10") = d;
    register long r8 __asm__("r8") = e;
    register long r9 __asm__("r9") = f;
    __asm__ volatile("syscall"
                     : "=a"(r)
                     : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
                     : "rcx", "r11", "memory");
    return r;
}

static void new_code(void)
{
    /* mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) */
    long page = raw6(9, 0, 4096, 3, 0x22, -1, 0);
    if (page < 0 && page > -4096) return;
    *(volatile unsigned char *)page = 0xc3; /* ret */
    if (raw6(10, page, 4096, 5, 0, 0, 0) == 0) /* mprotect(page, 4096, PROT_READ | PROT_EXEC) */
        ((void (*)(void))page)();
}

static void add(int n, const float *a, const float *b, float *c)
{
    new_code();
    honest_add(n, a, b, c);
}
static void sum(int n, const float *in, float *out, float *work)
{
    new_code();
    honest_sum(n, in, out, work);
}
static void mv(int m, int n, const double *A, const double *x, double *y)
{
    new_code();
    honest_mv(m, n, A, x, y);
}

#include "planted/entry_points.h"
