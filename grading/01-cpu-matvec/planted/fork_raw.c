/* expect: forbidden-syscall
 * threats: 18 (rows of ../shared/GRADER_THREATS.md)
 * Forks through a raw system call (fork bomb), dodging the symbol audit. */
#include <stddef.h>
#include "matvec.h"

static void product(int m, int n, const double *A, const double *x, double *y)
{
    (void)A, (void)x, (void)y, (void)n, (void)m;
    long r;
    __asm__ volatile("syscall" : "=a"(r) : "a"(57) : "rcx", "r11", "memory"); /* fork() */
    (void)r;
}

#include "planted/entry_points.h"
