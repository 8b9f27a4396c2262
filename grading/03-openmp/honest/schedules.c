/* honest: schedules other than the reference's (guided, chunked), simd reductions, and a blocked
 * kernel that updates four rows of C from each load of B.
 * A correct submission written differently from the reference: the grader must pass it. */
#include <stddef.h>

#include "parallel.h"

void omp_matvec(int m, int n, const double *A, const double *x, double *y)
{
#pragma omp parallel for schedule(guided)
    for (int i = 0; i < m; i++) {
        double s = 0;
#pragma omp simd reduction(+ : s)
        for (int j = 0; j < n; j++) s += A[(size_t)i * n + j] * x[j];
        y[i] = s;
    }
}

/* Chunks of 65536 elements (512 KiB of each vector) dealt round-robin; each thread's sum is a
 * reduction copy. (Chunks of 4096 read 0.9-1.07x the one-thread roof on a Zen 4: each 32 KiB
 * chunk restarts the prefetcher, and the dot is no faster than serial code there.) */
double omp_dot(int n, const double *x, const double *y)
{
    double s = 0;
#pragma omp parallel for simd reduction(+ : s) schedule(static, 65536)
    for (int i = 0; i < n; i++) s += x[i] * y[i];
    return s;
}

/* Blocks of 8 rows x 128 columns of C; i-k-j inside each. */
void omp_matmul(int m, int n, int k, const double *A, const double *B, double *C)
{
    int mb = (m + 7) / 8, nb = (n + 127) / 128;
#pragma omp parallel for collapse(2) schedule(static)
    for (int bi = 0; bi < mb; bi++)
        for (int bj = 0; bj < nb; bj++) {
            int i1 = bi * 8 + 8 < m ? bi * 8 + 8 : m, j0 = bj * 128, j1 = j0 + 128 < n ? j0 + 128 : n;
            for (int i = bi * 8; i < i1; i++)
                for (int p = 0; p < k; p++) {
                    const double a = A[(size_t)i * k + p], *restrict b = B + (size_t)p * n;
                    double *restrict c = C + (size_t)i * n;
                    for (int j = j0; j < j1; j++) c[j] += a * b[j];
                }
        }
}

/* Four rows of C at a time over a k-block of 256 and a column block of 256: each row segment of
 * B loaded feeds four rows. Blocks of 4 rows x 256 columns are shared out. */
void omp_blocked(int m, int n, int k, const double *A, const double *B, double *C)
{
    enum { KB = 256, JB = 256 };
    int m4 = m - m % 4, nb = (n + JB - 1) / JB;
    for (int p0 = 0; p0 < k; p0 += KB) {
        int p1 = p0 + KB < k ? p0 + KB : k;
#pragma omp parallel for collapse(2) schedule(static)
        for (int i = 0; i < m4; i += 4)
            for (int bj = 0; bj < nb; bj++) {
                int j0 = bj * JB, j1 = j0 + JB < n ? j0 + JB : n;
                double *restrict c0 = C + (size_t)i * n, *restrict c1 = c0 + n, *restrict c2 = c1 + n,
                                 *restrict c3 = c2 + n;
                for (int p = p0; p < p1; p++) {
                    const double *restrict b = B + (size_t)p * n;
                    double a0 = A[(size_t)i * k + p], a1 = A[(size_t)(i + 1) * k + p], a2 = A[(size_t)(i + 2) * k + p],
                           a3 = A[(size_t)(i + 3) * k + p];
                    for (int j = j0; j < j1; j++) {
                        c0[j] += a0 * b[j];
                        c1[j] += a1 * b[j];
                        c2[j] += a2 * b[j];
                        c3[j] += a3 * b[j];
                    }
                }
            }
#pragma omp parallel for schedule(static)
        for (int i = m4; i < m; i++) /* the last m % 4 rows */
            for (int p = p0; p < p1; p++) {
                const double a = A[(size_t)i * k + p];
                for (int j = 0; j < n; j++) C[(size_t)i * n + j] += a * B[(size_t)p * n + j];
            }
    }
}
