/* expect: forbidden-syscall
 * threats: 29 (rows of ../shared/GRADER_THREATS.md)
 * Tries to attach to its parent, the scorer, with a raw ptrace system call, to rewrite its
 * verdicts in memory. The system-call filter kills the runner at once. */
#include "planted/common.h"
#include "gemm.h"

static void mm(int m, int n, int k, const double *A, const double *B, double *C)
{
    long ppid, r;
    __asm__ volatile("syscall" : "=a"(ppid) : "a"(110) : "rcx", "r11", "memory"); /* getppid() */
    register long addr __asm__("rdx") = 0;
    register long data __asm__("r10") = 0;
    __asm__ volatile("syscall" : "=a"(r) : "a"(101), "D"(16), "S"(ppid), "r"(addr), "r"(data) : "rcx", "r11", "memory"); /* ptrace(PTRACE_ATTACH, ppid) */
    (void)r;
    ikj(m, n, k, A, B, C);
}

#include "planted/entry_points.h"
