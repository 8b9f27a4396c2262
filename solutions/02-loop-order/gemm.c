/* gemm.c - lab 02 reference: C += A B in double, six loop orders, then cache and register
 * blocking. A is m x k (lda = k), B is k x n (ldb = n), C is m x n (ldc = n), row-major. */
#include <stddef.h>

#include "gemm.h"

#define a(i, p) A[(size_t)(i) * k + (p)]
#define b(p, j) B[(size_t)(p) * n + (j)]
#define c(i, j) C[(size_t)(i) * n + (j)]

/* ================================================================ stage 1: loop orders */

/* Inner k: a row of A (stride 1) against a column of B (stride n), one C element in a register. */
void gemm_ijk(int m, int n, int k, const double *A, const double *B, double *C)
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            double s = c(i, j);
            for (int p = 0; p < k; p++) s += a(i, p) * b(p, j);
            c(i, j) = s;
        }
}

/* Inner j: a(i, p) is fixed, B and C stream with stride 1: the loop vectorises. */
void gemm_ikj(int m, int n, int k, const double *A, const double *B, double *C)
{
    for (int i = 0; i < m; i++)
        for (int p = 0; p < k; p++) {
            double x = a(i, p);
            for (int j = 0; j < n; j++) c(i, j) += x * b(p, j);
        }
}

void gemm_jik(int m, int n, int k, const double *A, const double *B, double *C)
{
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            double s = c(i, j);
            for (int p = 0; p < k; p++) s += a(i, p) * b(p, j);
            c(i, j) = s;
        }
}

/* Inner i: A and C both jump a whole row per step: the worst for cache lines. */
void gemm_jki(int m, int n, int k, const double *A, const double *B, double *C)
{
    for (int j = 0; j < n; j++)
        for (int p = 0; p < k; p++) {
            double x = b(p, j);
            for (int i = 0; i < m; i++) c(i, j) += a(i, p) * x;
        }
}

void gemm_kij(int m, int n, int k, const double *A, const double *B, double *C)
{
    for (int p = 0; p < k; p++)
        for (int i = 0; i < m; i++) {
            double x = a(i, p);
            for (int j = 0; j < n; j++) c(i, j) += x * b(p, j);
        }
}

void gemm_kji(int m, int n, int k, const double *A, const double *B, double *C)
{
    for (int p = 0; p < k; p++)
        for (int j = 0; j < n; j++) {
            double x = b(p, j);
            for (int i = 0; i < m; i++) c(i, j) += a(i, p) * x;
        }
}

/* ================================================================ stage 2: cache blocking */

/* i-k-j inside blocks: a KB x NB block of B (128 x 512 doubles = 512 KiB) stays in L2 while
 * every row of A passes over it; the inner loop is still unit-stride and vectorises. */
#define MB 64
#define KB 128
#define NB 512

static int min(int x, int y) { return x < y ? x : y; }

void gemm_blocked(int m, int n, int k, const double *A, const double *B, double *C)
{
    for (int j0 = 0; j0 < n; j0 += NB)
        for (int p0 = 0; p0 < k; p0 += KB)
            for (int i0 = 0; i0 < m; i0 += MB)
                for (int i = i0; i < min(i0 + MB, m); i++)
                    for (int p = p0; p < min(p0 + KB, k); p++) {
                        double x = a(i, p);
                        double *restrict ci = &c(i, 0);
                        const double *restrict bp = &b(p, 0);
                        for (int j = j0; j < min(j0 + NB, n); j++) ci[j] += x * bp[j];
                    }
}

/* ================================================================ stage 3: register blocking */

/* The micro-kernel keeps a 4 x 16 block of C in four local arrays, which the compiler turns into
 * 16 vector registers (four doubles each; with the loads of A and B, 22 of AVX-512's 32 ymm
 * registers) for the whole k loop: each element of B it loads is
 * used 4 times, each element of A 16 times, and 16 independent chains of fused multiply-adds
 * hide their latency. (Four named arrays, not one 2-D array: GCC 12 vectorises the former and
 * gives up on the latter.) B is packed into a KC x 16 panel (48 KiB, in L2) so the kernel reads it
 * with stride 1 and without cache set conflicts (rows of B are n doubles apart); A is blocked MC rows at a time
 * so a block of it (MC x KC, 576 KiB) stays in L2 while the panels of B go by. */
#define NR 16
#define KC 384
#define MC 192

static void kernel_4x16(int kc, const double *A, int lda, const double *Bp, double *C, int ldc)
{
    double c0[NR], c1[NR], c2[NR], c3[NR];
    for (int j = 0; j < NR; j++) {
        c0[j] = C[j];
        c1[j] = C[ldc + j];
        c2[j] = C[2 * (size_t)ldc + j];
        c3[j] = C[3 * (size_t)ldc + j];
    }
    for (int p = 0; p < kc; p++) {
        const double *bp = Bp + (size_t)p * NR;
        double a0 = A[p], a1 = A[lda + p], a2 = A[2 * (size_t)lda + p], a3 = A[3 * (size_t)lda + p];
        for (int j = 0; j < NR; j++) {
            c0[j] += a0 * bp[j];
            c1[j] += a1 * bp[j];
            c2[j] += a2 * bp[j];
            c3[j] += a3 * bp[j];
        }
    }
    for (int j = 0; j < NR; j++) {
        C[j] = c0[j];
        C[ldc + j] = c1[j];
        C[2 * (size_t)ldc + j] = c2[j];
        C[3 * (size_t)ldc + j] = c3[j];
    }
}

/* Rows [i0, i1) and columns [j0, j0 + w) of C += A[., p0 .. p0+kc) B[p0 .. p0+kc, .), the plain
 * i-k-j way: the edges the micro-kernel doesn't cover. */
static void edge(int i0, int i1, int j0, int w, int p0, int kc, int n, int k, const double *A, const double *B, double *C)
{
    for (int i = i0; i < i1; i++)
        for (int p = p0; p < p0 + kc; p++) {
            double x = a(i, p);
            for (int j = j0; j < j0 + w; j++) c(i, j) += x * b(p, j);
        }
}

void gemm_register(int m, int n, int k, const double *A, const double *B, double *C)
{
    double Bp[KC * NR];
    for (int p0 = 0; p0 < k; p0 += KC) {
        int kc = min(KC, k - p0);
        for (int i0 = 0; i0 < m; i0 += MC) {
            int ie = min(i0 + MC, m), i4 = i0 + (ie - i0) / 4 * 4;
            for (int j = 0; j + NR <= n; j += NR) {
                for (int p = 0; p < kc; p++)
                    for (int jj = 0; jj < NR; jj++) Bp[p * NR + jj] = b(p0 + p, j + jj);
                for (int i = i0; i < i4; i += 4) kernel_4x16(kc, &a(i, p0), k, Bp, &c(i, j), n);
                edge(i4, ie, j, NR, p0, kc, n, k, A, B, C); /* the last m % 4 rows */
            }
            edge(i0, ie, n - n % NR, n % NR, p0, kc, n, k, A, B, C); /* the last n % 16 columns */
        }
    }
}
