/* expect: forbidden-syscall
 * threats: 30 (rows of ../shared/GRADER_THREATS.md)
 * Opens a socket with a raw system call (dodging the audit of socket) to send its inputs out
 * and fetch a product computed elsewhere. The system-call filter kills the runner. */
#include "planted/common.h"
#include "gemm.h"

static void mm(int m, int n, int k, const double *A, const double *B, double *C)
{
    long fd;
    __asm__ volatile("syscall" : "=a"(fd) : "a"(41), "D"(2), "S"(1), "d"(0) : "rcx", "r11", "memory"); /* socket(AF_INET, SOCK_STREAM, 0) */
    (void)fd;
    ikj(m, n, k, A, B, C);
}

#include "planted/entry_points.h"
