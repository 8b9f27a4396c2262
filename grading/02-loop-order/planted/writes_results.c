/* expect: forbidden-syscall
 * threats: 12 (rows of ../shared/GRADER_THREATS.md)
 * Opens the grader's results file for writing through a raw openat system call (dodging the
 * audit of fopen and open), to overwrite its verdicts. The system-call filter kills it. */
#include "planted/common.h"
#include "gemm.h"

static void mm(int m, int n, int k, const double *A, const double *B, double *C)
{
    static const char path[] = "../../../results/02-loop-order.json";
    long fd;
    /* openat(AT_FDCWD, path, O_WRONLY | O_CREAT | O_TRUNC, 0644) */
    register long flags __asm__("rdx") = 01 | 0100 | 01000;
    register long mode __asm__("r10") = 0644;
    __asm__ volatile("syscall" : "=a"(fd) : "a"(257), "D"(-100), "S"(path), "r"(flags), "r"(mode) : "rcx", "r11", "memory");
    (void)fd;
    ikj(m, n, k, A, B, C);
}

#include "planted/entry_points.h"
