/* expect: no-record
 * threats: 10 (rows of ../shared/GRADER_THREATS.md)
 * Right on its first call, then ends the process with status 0 through a raw exit system call
 * (dodging the audit of exit and _exit). The runner never sends the result of that call, and a
 * missing record is a failure whatever the exit status. */
#include "planted/common.h"
#include "gemm.h"

static void mm(int m, int n, int k, const double *A, const double *B, double *C)
{
    static int calls;
    if (calls++ > 0) __asm__ volatile("syscall" : : "a"(60), "D"(0) : "rcx", "r11", "memory"); /* exit(0) */
    ikj(m, n, k, A, B, C);
}

#include "planted/entry_points.h"
