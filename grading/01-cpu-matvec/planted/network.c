/* expect: forbidden-syscall
 * threats: 30 (rows of ../shared/GRADER_THREATS.md)
 * Opens a socket with a raw system call (dodging the audit of socket) to send its inputs out and
 * fetch a result computed elsewhere. The system-call filter kills the runner. */
#include <stddef.h>
#include "matvec.h"

static void product(int m, int n, const double *A, const double *x, double *y)
{
    long fd;
    __asm__ volatile("syscall" : "=a"(fd) : "a"(41), "D"(2), "S"(1), "d"(0) : "rcx", "r11", "memory"); /* socket(AF_INET, SOCK_STREAM, 0) */
    (void)fd;
    for (int i = 0; i < m; i++) {
        double s = 0;
        for (int j = 0; j < n; j++) s += A[(size_t)i * n + j] * x[j];
        y[i] = s;
    }
}

#include "planted/entry_points.h"
