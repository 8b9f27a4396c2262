/* expect: no-record
 * threats: 10 (rows of ../shared/GRADER_THREATS.md)
 * The last thread of the team ends the whole process with status 0 (a raw exit_group system
 * call, dodging the audit of exit) while the others are still working: no result record
 * reaches the grader, whatever the exit status. */
#include <omp.h>

#include "planted/common.h"
#include "parallel.h"

static void leave(void)
{
    if (omp_get_thread_num() == omp_get_num_threads() - 1)
        __asm__ volatile("syscall" : : "a"(231), "D"(0) : "rcx", "r11", "memory"); /* exit_group(0) */
}

static void mv(int m, int n, const double *A, const double *x, double *y)
{
#pragma omp parallel
    leave();
    par_matvec(m, n, A, x, y);
}
static double dt(int n, const double *x, const double *y)
{
#pragma omp parallel
    leave();
    return par_dot(n, x, y);
}
static void mm(int m, int n, int k, const double *A, const double *B, double *C)
{
#pragma omp parallel
    leave();
    par_matmul(m, n, k, A, B, C);
}

#include "planted/entry_points.h"
