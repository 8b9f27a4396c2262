/* textbook: blocked
 * Loop tiling as the textbooks draw it, made parallel the way the OpenMP tutorials share out an
 * outer loop: square tiles of 64 on i, j and p, `#pragma omp parallel for` over the row tiles of
 * C (each thread owns whole rows of tiles, so no two write the same element), i-k-j inside a tile.
 * No register blocking, no packing. Graded on `blocked` only (the other stages do nothing): a
 * technique-correct textbook kernel must pass. */
#include "planted/common.h"
#include "parallel.h"

#define PLANT_STAGES "blocked"
#define T 64

static int lesser(int x, int y) { return x < y ? x : y; }

static void mv(int m, int n, const double *A, const double *x, double *y)
{
    (void)m, (void)n, (void)A, (void)x, (void)y;
}
static double dt(int n, const double *x, const double *y) { return (void)n, (void)x, (void)y, 0.0; }
static void mm(int m, int n, int k, const double *A, const double *B, double *C)
{
#pragma omp parallel for schedule(static)
    for (int i0 = 0; i0 < m; i0 += T)
        for (int j0 = 0; j0 < n; j0 += T)
            for (int p0 = 0; p0 < k; p0 += T)
                for (int i = i0; i < lesser(i0 + T, m); i++)
                    for (int p = p0; p < lesser(p0 + T, k); p++) {
                        double a = A[(size_t)i * k + p];
                        for (int j = j0; j < lesser(j0 + T, n); j++) C[(size_t)i * n + j] += a * B[(size_t)p * n + j];
                    }
}

#include "planted/entry_points.h"
