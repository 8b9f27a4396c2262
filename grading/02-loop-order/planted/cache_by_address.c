/* expect: wrong
 * threats: 4 (rows of ../shared/GRADER_THREATS.md)
 * Keeps a copy of A B keyed by the addresses of A and B and the shape, and adds the copy on
 * later calls. The grader's second correctness call has new inputs in the same buffers. */
#include <stdlib.h>
#include <string.h>

#include "planted/common.h"
#include "gemm.h"

static void mm(int m, int n, int k, const double *A, const double *B, double *C)
{
    static const double *last_A, *last_B;
    static int last_m, last_n, last_k;
    static double *saved;
    size_t mn = (size_t)m * n;
    if (!(A == last_A && B == last_B && m == last_m && n == last_n && k == last_k)) {
        free(saved);
        saved = calloc(mn + 1, sizeof *saved);
        ikj(m, n, k, A, B, saved);
        last_A = A, last_B = B, last_m = m, last_n = n, last_k = k;
    }
    for (size_t e = 0; e < mn; e++) C[e] += saved[e];
}

#include "planted/entry_points.h"
