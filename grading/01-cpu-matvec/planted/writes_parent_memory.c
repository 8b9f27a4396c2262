/* expect: forbidden-syscall
 * threats: 29 (rows of ../shared/GRADER_THREATS.md)
 * Tries to write into its parent's memory (the scorer's: a verdict, say) with a raw
 * process_vm_writev system call. The system-call filter kills the runner before it gets there. */
#include <stddef.h>
#include <sys/uio.h>
#include "matvec.h"

static void product(int m, int n, const double *A, const double *x, double *y)
{
    static double forged = 1;
    long ppid, r;
    struct iovec mine = {&forged, sizeof forged}, theirs = {(void *)0x400000, sizeof forged};
    __asm__ volatile("syscall" : "=a"(ppid) : "a"(110) : "rcx", "r11", "memory"); /* getppid() */
    register long remote __asm__("r10") = (long)&theirs, rcount __asm__("r8") = 1, flags __asm__("r9") = 0;
    __asm__ volatile("syscall"
                     : "=a"(r)
                     : "a"(311), "D"(ppid), "S"(&mine), "d"(1L), "r"(remote), "r"(rcount), "r"(flags)
                     : "rcx", "r11", "memory"); /* process_vm_writev(ppid, &mine, 1, &theirs, 1, 0) */
    (void)r;
    for (int i = 0; i < m; i++) {
        double s = 0;
        for (int j = 0; j < n; j++) s += A[(size_t)i * n + j] * x[j];
        y[i] = s;
    }
}

#include "planted/entry_points.h"
