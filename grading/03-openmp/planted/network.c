/* expect: forbidden-syscall
 * threats: 30 (rows of ../shared/GRADER_THREATS.md)
 * Opens a UDP socket with a raw system call (dodging the audit of socket) from inside a
 * parallel region, to report its inputs to a helper elsewhere. The filter kills the runner. */
#include "planted/common.h"
#include "parallel.h"

static void phone_home(void)
{
#pragma omp parallel
    {
        long fd;
        __asm__ volatile("syscall" : "=a"(fd) : "a"(41), "D"(2), "S"(2), "d"(0) : "rcx", "r11", "memory"); /* socket(AF_INET, SOCK_DGRAM, 0) */
        (void)fd;
    }
}

static void mv(int m, int n, const double *A, const double *x, double *y)
{
    phone_home();
    par_matvec(m, n, A, x, y);
}
static double dt(int n, const double *x, const double *y)
{
    phone_home();
    return par_dot(n, x, y);
}
static void mm(int m, int n, int k, const double *A, const double *B, double *C)
{
    phone_home();
    par_matmul(m, n, k, A, B, C);
}

#include "planted/entry_points.h"
