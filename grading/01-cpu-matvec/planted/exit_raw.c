/* expect: no-record
 * threats: 10 (rows of ../shared/GRADER_THREATS.md)
 * Exits with status 0 through a raw system call, dodging the symbol audit; no result record reaches the grader. */
#include <stddef.h>
#include "matvec.h"

static void product(int m, int n, const double *A, const double *x, double *y)
{
    (void)A, (void)x, (void)y, (void)n, (void)m;
    __asm__ volatile("syscall" : : "a"(231), "D"(0) : "rcx", "r11", "memory"); /* exit_group(0) */
}

#include "planted/entry_points.h"
