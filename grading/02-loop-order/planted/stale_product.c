/* expect: wrong
 * threats: 3 (rows of ../shared/GRADER_THREATS.md)
 * Computes A B into a scratch buffer, frees it, and on a later call of the same shape mallocs it
 * again and adds it without recomputing, hoping the recycled memory still holds the product.
 * (Often the same address comes back, but the inputs are new, and malloc reuses freed memory.) */
#include <stdlib.h>

#include "gemm.h"

static void mm(int m, int n, int k, const double *A, const double *B, double *C)
{
    static int last_m, last_n, last_k;
    size_t mn = (size_t)m * n;
    double *P = malloc(mn * sizeof *P + 1);
    if (!(m == last_m && n == last_n && k == last_k)) {
        for (size_t e = 0; e < mn; e++) P[e] = 0;
        for (int i = 0; i < m; i++)
            for (int p = 0; p < k; p++)
                for (int j = 0; j < n; j++) P[(size_t)i * n + j] += A[(size_t)i * k + p] * B[(size_t)p * n + j];
        last_m = m, last_n = n, last_k = k;
    }
    for (size_t e = 0; e < mn; e++) C[e] += P[e];
    free(P);
}

#include "planted/entry_points.h"
