/* expect: out-of-bounds
 * threats: 16 (rows of ../shared/GRADER_THREATS.md)
 * Works on C in strips of 16 columns and rounds the last strip up to 16, reading B and writing C
 * past the end of each row: on the last row, past the end of C, into the grader's guard zone. */
#include <stddef.h>

#include "gemm.h"

static void mm(int m, int n, int k, const double *A, const double *B, double *C)
{
    for (int j0 = 0; j0 < n; j0 += 16)
        for (int i = 0; i < m; i++)
            for (int p = 0; p < k; p++) {
                double a = A[(size_t)i * k + p];
                for (int j = j0; j < j0 + 16; j++) C[(size_t)i * n + j] += a * B[(size_t)p * n + j]; /* no j < n test */
            }
}

#include "planted/entry_points.h"
