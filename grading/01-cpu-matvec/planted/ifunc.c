/* expect: audit
 * threats: 8, 9 (rows of ../shared/GRADER_THREATS.md)
 * Makes the lab functions ifuncs: their resolver runs while the program loads, before the
 * grader's main, like a constructor. */
#include <stddef.h>
#include "matvec.h"

static void product(int m, int n, const double *A, const double *x, double *y)
{
    for (int i = 0; i < m; i++) {
        double s = 0;
        for (int j = 0; j < n; j++) s += A[(size_t)i * n + j] * x[j];
        y[i] = s;
    }
}

static void rows_impl(int m, int n, const double *const *A, const double *x, double *y)
{
    for (int i = 0; i < m; i++) product(1, n, A[i], x, y + i);
}

static void *pick_rows(void) { return (void *)rows_impl; }
static void *pick_product(void) { return (void *)product; }

void matvec_rows(int m, int n, const double *const *A, const double *x, double *y)
    __attribute__((ifunc("pick_rows")));
void matvec_contiguous(int m, int n, const double *A, const double *x, double *y)
    __attribute__((ifunc("pick_product")));
void matvec_unrolled(int m, int n, const double *A, const double *x, double *y)
    __attribute__((ifunc("pick_product")));
