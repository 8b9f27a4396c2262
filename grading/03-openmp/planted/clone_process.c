/* expect: forbidden-syscall
 * threats: 18 (rows of ../shared/GRADER_THREATS.md)
 * Threads are allowed here, so it tries clone without CLONE_THREAD (a new process, a fork by
 * another name) from every thread of the team, through raw system calls. The filter lets
 * clone through only for threads, and kills the runner. */
#include "planted/common.h"
#include "parallel.h"

static void spawn(void)
{
#pragma omp parallel
    {
        long r;
        register long tid __asm__("rdx") = 0;
        register long tls __asm__("r10") = 0;
        register long r8 __asm__("r8") = 0;
        /* clone(SIGCHLD, 0, ...): fork(); a child exits at once */
        __asm__ volatile("syscall" : "=a"(r) : "a"(56), "D"(17), "S"(0), "r"(tid), "r"(tls), "r"(r8) : "rcx", "r11", "memory");
        if (r == 0) __asm__ volatile("syscall" : : "a"(231), "D"(0) : "rcx", "r11", "memory");
    }
}

static void mv(int m, int n, const double *A, const double *x, double *y)
{
    spawn();
    par_matvec(m, n, A, x, y);
}
static double dt(int n, const double *x, const double *y)
{
    spawn();
    return par_dot(n, x, y);
}
static void mm(int m, int n, int k, const double *A, const double *B, double *C)
{
    spawn();
    par_matmul(m, n, k, A, B, C);
}

#include "planted/entry_points.h"
