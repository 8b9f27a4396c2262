/* expect: wrong
 * threats: 23 (rows of ../shared/GRADER_THREATS.md)
 * diagnosis: not a multiple of 8
 * Blocks by 8 and forgets the edge blocks: right only when m, n and k are multiples of 8. */
#include <stddef.h>

#include "gemm.h"

static void mm(int m, int n, int k, const double *A, const double *B, double *C)
{
    for (int i0 = 0; i0 + 8 <= m; i0 += 8)
        for (int p0 = 0; p0 + 8 <= k; p0 += 8)
            for (int j0 = 0; j0 + 8 <= n; j0 += 8)
                for (int i = i0; i < i0 + 8; i++)
                    for (int p = p0; p < p0 + 8; p++)
                        for (int j = j0; j < j0 + 8; j++) C[(size_t)i * n + j] += A[(size_t)i * k + p] * B[(size_t)p * n + j];
}

#include "planted/entry_points.h"
