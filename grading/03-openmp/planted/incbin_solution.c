/* expect: audit
 * threats: 13 (rows of ../shared/GRADER_THREATS.md)
 * Pulls the reference solution into the object with the assembler's .incbin, its name split
 * into two string literals (".inc" "bin") and in capitals so that no search of the source or
 * the preprocessed text finds the directive, then prints the start of it: a crash report quotes
 * the end of a program's output. The assembler's own list of the files it read catches it. */
#include <stdio.h>

#include "planted/common.h"
#include "parallel.h"

__asm__(".section .rodata\n"
        "solution_text:\n"
        ".INC" "BIN \"solutions/03-openmp/parallel.c\"\n"
        ".byte 0\n"
        ".text");
extern const char solution_text[] __asm__("solution_text");

static void mv(int m, int n, const double *A, const double *x, double *y)
{
    printf("%.600s\n", solution_text);
    par_matvec(m, n, A, x, y);
}
static double dt(int n, const double *x, const double *y) { return par_dot(n, x, y); }
static void mm(int m, int n, int k, const double *A, const double *B, double *C) { par_matmul(m, n, k, A, B, C); }

#include "planted/entry_points.h"
