/* textbook: matmul
 * The handout's stage 3 as a student first gets it right from the course blog's kernel: the blog's
 * `collapse(2)` kept, over the rows of C and its columns in stretches of 64, and inside it lab 02's
 * i-k-j order (for each a_ip, the stretch of row p of B scaled into the stretch of row i of C:
 * unit stride). No register blocks, no packing. Graded on `matmul` only (the other stages do
 * nothing): a technique-correct textbook kernel must pass. */
#include "planted/common.h"
#include "parallel.h"

#define PLANT_STAGES "matmul"
#define W 64

static void mv(int m, int n, const double *A, const double *x, double *y)
{
    (void)m, (void)n, (void)A, (void)x, (void)y;
}
static double dt(int n, const double *x, const double *y) { return (void)n, (void)x, (void)y, 0.0; }
static void mm(int m, int n, int k, const double *A, const double *B, double *C)
{
    int stretches = (n + W - 1) / W;
#pragma omp parallel for collapse(2)
    for (int i = 0; i < m; i++)
        for (int s = 0; s < stretches; s++) {
            int j0 = s * W, j1 = j0 + W < n ? j0 + W : n;
            for (int p = 0; p < k; p++) {
                double a = A[(size_t)i * k + p];
                for (int j = j0; j < j1; j++) C[(size_t)i * n + j] += a * B[(size_t)p * n + j];
            }
        }
}

#include "planted/entry_points.h"
