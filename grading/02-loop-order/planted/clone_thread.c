/* expect: forbidden-syscall
 * threats: 6 (rows of ../shared/GRADER_THREATS.md)
 * Starts a thread with a raw clone(CLONE_THREAD) system call, dodging the audit of
 * pthread_create, to keep working after the call returns. Lab 02 is single-threaded: the
 * system-call filter allows no thread and kills the runner. (Were it let through, the new
 * thread would exit at once: this plant must not hang or crash for any other reason.) */
#include <stdlib.h>

#include "planted/common.h"
#include "gemm.h"

static void mm(int m, int n, int k, const double *A, const double *B, double *C)
{
    static char *stack;
    if (!stack) stack = malloc(1 << 16);
    /* CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD | CLONE_SYSVSEM */
    long flags = 0x100 | 0x200 | 0x400 | 0x800 | 0x10000 | 0x40000, r;
    register long tid __asm__("rdx") = 0;
    register long tls __asm__("r10") = 0;
    register long r8 __asm__("r8") = 0;
    __asm__ volatile("syscall\n\t"
                     "test %%rax, %%rax\n\t"
                     "jnz 1f\n\t"
                     "mov $60, %%eax\n\t" /* the new thread: exit(0) at once */
                     "xor %%edi, %%edi\n\t"
                     "syscall\n"
                     "1:"
                     : "=a"(r)
                     : "a"(56), "D"(flags), "S"(stack + (1 << 16)), "r"(tid), "r"(tls), "r"(r8)
                     : "rcx", "r11", "memory");
    (void)r;
    ikj(m, n, k, A, B, C);
}

#include "planted/entry_points.h"
