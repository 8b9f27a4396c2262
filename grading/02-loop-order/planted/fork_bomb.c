/* expect: forbidden-syscall
 * threats: 18 (rows of ../shared/GRADER_THREATS.md)
 * A fork bomb through raw vfork system calls (dodging the audit of fork): the system-call
 * filter kills the runner at the first one, and the process group is killed with it. */
#include "planted/common.h"
#include "gemm.h"

static void mm(int m, int n, int k, const double *A, const double *B, double *C)
{
    for (int i = 0; i < 64; i++) {
        long r;
        __asm__ volatile("syscall" : "=a"(r) : "a"(58) : "rcx", "r11", "memory"); /* vfork() */
        if (r == 0) __asm__ volatile("syscall" : : "a"(60), "D"(0) : "rcx", "r11", "memory"); /* a child: exit */
    }
    ikj(m, n, k, A, B, C);
}

#include "planted/entry_points.h"
