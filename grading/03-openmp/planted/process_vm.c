/* expect: forbidden-syscall
 * threats: 29 (rows of ../shared/GRADER_THREATS.md)
 * Tries to write into its parent, the scorer, with a raw process_vm_writev system call, to
 * patch its verdicts in memory. The system-call filter kills the runner at once. */
#include <sys/uio.h>

#include "planted/common.h"
#include "parallel.h"

static void poke(void)
{
    static double perfect = 1.0;
    struct iovec local = {&perfect, sizeof perfect}, remote = {(void *)0x400000, sizeof perfect};
    long ppid, r;
    __asm__ volatile("syscall" : "=a"(ppid) : "a"(110) : "rcx", "r11", "memory"); /* getppid() */
    register long liovcnt __asm__("rdx") = 1;
    register const struct iovec *riov __asm__("r10") = &remote;
    register long riovcnt __asm__("r8") = 1;
    register long flags __asm__("r9") = 0;
    __asm__ volatile("syscall"
                     : "=a"(r)
                     : "a"(311), "D"(ppid), "S"(&local), "r"(liovcnt), "r"(riov), "r"(riovcnt), "r"(flags)
                     : "rcx", "r11", "memory"); /* process_vm_writev */
    (void)r;
}

static void mv(int m, int n, const double *A, const double *x, double *y)
{
    poke();
    par_matvec(m, n, A, x, y);
}
static double dt(int n, const double *x, const double *y)
{
    poke();
    return par_dot(n, x, y);
}
static void mm(int m, int n, int k, const double *A, const double *B, double *C)
{
    poke();
    par_matmul(m, n, k, A, B, C);
}

#include "planted/entry_points.h"
