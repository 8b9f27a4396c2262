/* expect: forbidden-syscall
 * threats: 33 (rows of ../shared/GRADER_THREATS.md)
 * Raises its own scheduling priority to the top (nice -20) through a raw setpriority, a call only
 * a privileged process may make, to win the CPU from everything else on the machine while timed.
 * The product is right, so only the privilege could fail it. The allowlist kills the runner at
 * the call; a runner without the grader's root and capabilities would be refused it anyway. */
#include <stddef.h>
#include "matvec.h"

static long raw3(long nr, long a, long b, long c)
{
    long r;
    __asm__ volatile("syscall" : "=a"(r) : "a"(nr), "D"(a), "S"(b), "d"(c) : "rcx", "r11", "memory");
    return r;
}

static void product(int m, int n, const double *A, const double *x, double *y)
{
    raw3(141, 0, 0, -20); /* setpriority(PRIO_PROCESS, 0 (this process), -20) */
    for (int i = 0; i < m; i++) {
        double s = 0;
        for (int j = 0; j < n; j++) s += A[(size_t)i * n + j] * x[j];
        y[i] = s;
    }
}

#include "planted/entry_points.h"
