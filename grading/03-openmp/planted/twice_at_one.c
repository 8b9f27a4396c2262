/* expect: no-speedup in matmul,blocked
 * threats: 36 (rows of ../shared/GRADER_THREATS.md)
 * Serial code that fakes the speedup of the compute-bound stages by slowing its own one-thread run:
 * when OpenMP says one thread, it does the product twice (the first time on a copy of C it throws
 * away). At full thread count it is plain serial code, i-k-j for matmul and a cache-blocked i-k-j
 * for blocked, fast enough for both stages' fractions of OpenBLAS, so only the speedup can tell; and
 * its own time at one thread over its time at two reads about 2x. Judged against the serial
 * baseline the grader times itself in the run (grading/03-openmp/baseline.c), which it does not
 * beat, and by the kernel's count of its CPU time (one CPU's worth), it fails both. */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "planted/common.h"
#include "parallel.h"

/* Cache blocking, serial: 32 x 512 blocks of C, k in steps of 128, i-k-j inside (honest/by_hand.c's
 * kernel without its parallel loop). */
static void serial_blocked(int m, int n, int k, const double *A, const double *B, double *C)
{
    enum { RB = 32, CB = 512, KB = 128 };
    for (int i0 = 0; i0 < m; i0 += RB)
        for (int j0 = 0; j0 < n; j0 += CB) {
            int i1 = i0 + RB < m ? i0 + RB : m, j1 = j0 + CB < n ? j0 + CB : n;
            for (int p0 = 0; p0 < k; p0 += KB)
                for (int i = i0; i < i1; i++)
                    for (int p = p0; p < p0 + KB && p < k; p++) {
                        double a = A[(size_t)i * k + p];
                        const double *restrict b = B + (size_t)p * n;
                        double *restrict c = C + (size_t)i * n;
                        for (int j = j0; j < j1; j++) c[j] += a * b[j];
                    }
        }
}

typedef void kernel(int, int, int, const double *, const double *, double *);

/* At one thread: the product once on a copy of C (thrown away), then on C. */
static void twice_at_one(kernel *f, int m, int n, int k, const double *A, const double *B, double *C)
{
    static volatile double sink;
    size_t bytes = sizeof(double) * (size_t)m * n;
    double *copy = omp_get_max_threads() == 1 && bytes ? malloc(bytes) : NULL;
    if (copy) {
        memcpy(copy, C, bytes);
        f(m, n, k, A, B, copy);
        sink += copy[0];
        free(copy);
    }
    f(m, n, k, A, B, C);
}

void omp_matmul(int m, int n, int k, const double *A, const double *B, double *C)
{
    twice_at_one(serial_matmul, m, n, k, A, B, C);
}

void omp_blocked(int m, int n, int k, const double *A, const double *B, double *C)
{
    twice_at_one(serial_blocked, m, n, k, A, B, C);
}

/* The stages this plant is not about do nothing: they fail at once instead of being graded in full. */
void omp_matvec(int m, int n, const double *A, const double *x, double *y) { (void)m, (void)n, (void)A, (void)x, (void)y; }
double omp_dot(int n, const double *x, const double *y) { return (void)n, (void)x, (void)y, 0.0; }
