/* expect: wrong
 * threats: 4 (rows of ../shared/GRADER_THREATS.md)
 * Remembers each stage's last result keyed by the addresses of its inputs and the shape, and
 * returns it when they come again. Every correctness call after the first has new inputs in the
 * same buffers (and the timed calls of matvec and dot a new x each). */
#include <stdlib.h>
#include <string.h>

#include "planted/common.h"
#include "parallel.h"

static void mv(int m, int n, const double *A, const double *x, double *y)
{
    static const double *last_A, *last_x;
    static int last_m, last_n;
    static double *saved;
    if (A == last_A && x == last_x && m == last_m && n == last_n) {
        memcpy(y, saved, (size_t)m * sizeof *y);
        return;
    }
    par_matvec(m, n, A, x, y);
    free(saved);
    saved = malloc((size_t)m * sizeof *saved + 1);
    memcpy(saved, y, (size_t)m * sizeof *y);
    last_A = A, last_x = x, last_m = m, last_n = n;
}

static double dt(int n, const double *x, const double *y)
{
    static const double *last_x, *last_y;
    static int last_n;
    static double saved;
    if (!(x == last_x && y == last_y && n == last_n)) saved = par_dot(n, x, y);
    last_x = x, last_y = y, last_n = n;
    return saved;
}

static void mm(int m, int n, int k, const double *A, const double *B, double *C)
{
    static const double *last_A, *last_B;
    static int last_m, last_n, last_k;
    static double *saved;
    size_t mn = (size_t)m * n;
    if (!(A == last_A && B == last_B && m == last_m && n == last_n && k == last_k)) {
        free(saved);
        saved = calloc(mn + 1, sizeof *saved);
        par_matmul(m, n, k, A, B, saved);
        last_A = A, last_B = B, last_m = m, last_n = n, last_k = k;
    }
#pragma omp parallel for schedule(static)
    for (size_t e = 0; e < mn; e++) C[e] += saved[e];
}

#include "planted/entry_points.h"
