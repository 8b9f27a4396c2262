/* expect: output-flood
 * threats: 19 (rows of ../shared/GRADER_THREATS.md)
 * A debugging print left in the inner loop: every update of C is printed. The 1 x 1 x 1 case
 * passes; the next sizes print megabytes, and the output-size limit stops the runner. */
#include <stdio.h>

#include "gemm.h"

static void mm(int m, int n, int k, const double *A, const double *B, double *C)
{
    for (int i = 0; i < m; i++)
        for (int p = 0; p < k; p++)
            for (int j = 0; j < n; j++) {
                C[(size_t)i * n + j] += A[(size_t)i * k + p] * B[(size_t)p * n + j];
                printf("C[%d][%d] = %.17g after p = %d\n", i, j, C[(size_t)i * n + j], p);
            }
}

#include "planted/entry_points.h"
