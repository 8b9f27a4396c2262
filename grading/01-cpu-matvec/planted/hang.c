/* expect: timeout
 * Never returns. */
#include <stddef.h>
#include "matvec.h"

static void product(int m, int n, const double *A, const double *x, double *y)
{
    (void)A, (void)x, (void)y, (void)n, (void)m;
    for (volatile int spin = 1; spin;) {
    }
}

void matvec_rows(int m, int n, const double *const *A, const double *x, double *y)
{
    /* rows are copied into one block so every stage shares the planted behaviour */
    static double block[1 << 16];
    if ((size_t)m * n > sizeof block / sizeof block[0]) {
        for (int i = 0; i < m; i++) product(1, n, A[i], x, y + i);
        return;
    }
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) block[(size_t)i * n + j] = A[i][j];
    product(m, n, block, x, y);
}

void matvec_contiguous(int m, int n, const double *A, const double *x, double *y) { product(m, n, A, x, y); }
void matvec_unrolled(int m, int n, const double *A, const double *x, double *y) { product(m, n, A, x, y); }
