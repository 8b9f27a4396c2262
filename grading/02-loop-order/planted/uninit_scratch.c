/* expect: wrong
 * threats: 28 (rows of ../shared/GRADER_THREATS.md)
 * Accumulates A B in a malloc'd scratch array it never clears, then adds it to C. Fresh memory
 * from the system is zero, so some calls are right by luck; the grader calls twice with new
 * inputs in one process, and the second call's recycled memory holds the first call's garbage. */
#include <stdlib.h>

#include "gemm.h"

static void mm(int m, int n, int k, const double *A, const double *B, double *C)
{
    double *P = malloc((size_t)m * n * sizeof *P + 1); /* not calloc: "it will be overwritten" */
    for (int i = 0; i < m; i++)
        for (int p = 0; p < k; p++)
            for (int j = 0; j < n; j++) P[(size_t)i * n + j] += A[(size_t)i * k + p] * B[(size_t)p * n + j];
    for (size_t e = 0; e < (size_t)m * n; e++) C[e] += P[e];
    free(P);
}

#include "planted/entry_points.h"
