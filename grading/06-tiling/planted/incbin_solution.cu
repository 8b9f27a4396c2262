/* expect: audit
 * threats: 13 (rows of ../shared/GRADER_THREATS.md)
 * Pulls the reference solution into the host object with the assembler's .incbin, the
 * directive's name built by an assembler macro so that no text search finds it, and prints it:
 * a crash report quotes the end of a program's output. The assembler's own list of the files
 * it read (asked for through nvcc and the host compiler) catches it. */
#include <stdio.h>

#include "sgemm.h"
#include "planted/common_kernels.h"

__asm__(".macro grab what\n"
        ".inc\\what \"solutions/06-tiling/sgemm.cu\"\n"
        ".endm\n"
        ".section .rodata\n"
        "solution_text:\n"
        "grab bin\n"
        ".byte 0\n"
        ".text");
extern "C" const char solution_text[] __asm__("solution_text");

static void mm(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    printf("%.600s\n", solution_text);
    honest_mm(M, N, K, alpha, A, B, beta, C);
}

#include "planted/entry_points.h"
