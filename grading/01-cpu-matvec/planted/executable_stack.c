/* expect: crash
 * threats: 40 (rows of ../shared/GRADER_THREATS.md)
 * diagnosis: made non-executable (W^X)
 * Asks the linker for an executable stack (a .note.GNU-stack section of its own, as a GNU C nested
 * function would), writes machine code into a stack buffer and calls it: new code the audit never
 * saw, with no system call at all. The sandbox takes the stack's execute right away before any of
 * the student's code runs, so the call faults. */
#include <stddef.h>
#include "matvec.h"

__asm__(".section .note.GNU-stack,\"x\",@progbits\n.previous");

static void product(int m, int n, const double *A, const double *x, double *y)
{
    volatile unsigned char code[16] = {0xc3}; /* ret */
    ((void (*)(void))(void *)code)();
    for (int i = 0; i < m; i++) {
        double s = 0;
        for (int j = 0; j < n; j++) s += A[(size_t)i * n + j] * x[j];
        y[i] = s;
    }
}

#include "planted/entry_points.h"
