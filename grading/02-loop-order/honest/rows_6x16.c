/* honest: the loop orders through two-dimensional array views of the matrices (a[i][p]); cache
 * blocking that keeps a 64 x 128 tile of C in a local array for the whole k loop; and a 6 x 16
 * register kernel reading A in place, with all of B's k-slice packed once into zero-padded
 * 16-column panels and the last m % 6 rows done by a one-row kernel.
 * A correct submission written differently from the reference: the grader must pass it. */
#include <stddef.h>
#include <string.h>

#include "gemm.h"

/* Row-major views: a[i][p] is A[i * k + p], b[p][j] is B[p * n + j], c[i][j] is C[i * n + j]. */
#define VIEWS \
    const double(*a)[k] = (const double(*)[k])A; \
    const double(*b)[n] = (const double(*)[n])B; \
    double(*c)[n] = (double(*)[n])C

/* ================================================================ stage 1: loop orders */

void gemm_ijk(int m, int n, int k, const double *A, const double *B, double *C)
{
    VIEWS;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
            for (int p = 0; p < k; p++) c[i][j] += a[i][p] * b[p][j];
}

void gemm_ikj(int m, int n, int k, const double *A, const double *B, double *C)
{
    VIEWS;
    for (int i = 0; i < m; i++)
        for (int p = 0; p < k; p++)
            for (int j = 0; j < n; j++) c[i][j] += a[i][p] * b[p][j];
}

void gemm_jik(int m, int n, int k, const double *A, const double *B, double *C)
{
    VIEWS;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++)
            for (int p = 0; p < k; p++) c[i][j] += a[i][p] * b[p][j];
}

void gemm_jki(int m, int n, int k, const double *A, const double *B, double *C)
{
    VIEWS;
    for (int j = 0; j < n; j++)
        for (int p = 0; p < k; p++)
            for (int i = 0; i < m; i++) c[i][j] += a[i][p] * b[p][j];
}

void gemm_kij(int m, int n, int k, const double *A, const double *B, double *C)
{
    VIEWS;
    for (int p = 0; p < k; p++)
        for (int i = 0; i < m; i++)
            for (int j = 0; j < n; j++) c[i][j] += a[i][p] * b[p][j];
}

void gemm_kji(int m, int n, int k, const double *A, const double *B, double *C)
{
    VIEWS;
    for (int p = 0; p < k; p++)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < m; i++) c[i][j] += a[i][p] * b[p][j];
}

/* ================================================================ stage 2: cache blocking */

/* A TI x TJ tile of C (64 KiB, in L2) is accumulated in a local array over the whole k loop and
 * added to C once. k goes in steps of TK: a TK x TJ block of B (128 KiB, in L2) serves all the
 * tile's rows, and each row's 1 KiB strip of the tile stays in L1 over the block's TK steps
 * (i-k-j inside, unit stride). */
#define TI 64
#define TJ 128
#define TK 128

static int smaller(int x, int y) { return x < y ? x : y; }

void gemm_blocked(int m, int n, int k, const double *A, const double *B, double *C)
{
    static double tile[TI][TJ];
    for (int j0 = 0; j0 < n; j0 += TJ)
        for (int i0 = 0; i0 < m; i0 += TI) {
            int ti = smaller(TI, m - i0), tj = smaller(TJ, n - j0);
            memset(tile, 0, sizeof tile);
            for (int p0 = 0; p0 < k; p0 += TK)
                for (int i = 0; i < ti; i++) {
                    const double *restrict arow = A + (size_t)(i0 + i) * k;
                    double *restrict t = tile[i];
                    for (int p = p0; p < smaller(p0 + TK, k); p++) {
                        const double x = arow[p], *restrict brow = B + (size_t)p * n + j0;
                        for (int j = 0; j < tj; j++) t[j] += x * brow[j];
                    }
                }
            for (int i = 0; i < ti; i++)
                for (int j = 0; j < tj; j++) C[(size_t)(i0 + i) * n + j0 + j] += tile[i][j];
        }
}

/* ================================================================ stage 3: register blocking */

/* For each KC-deep slice of k, all of B's slice is packed once into panels of 16 columns
 * (KC x 16 doubles, 24 KiB: in L1 while a block of rows passes over it), zero-padded past the
 * last column. Rows go in blocks of MC (their KC-slice of A, 144 KiB, stays in L2), six at a
 * time: the kernel keeps a 6 x 16 tile of C in six pairs of 512-bit registers (twelve
 * accumulators, enough to hide the fused multiply-add latency), reading A in place, six
 * streams with stride 1. The m % 6 rows left over use a one-row kernel. */
#define KC 192
#define MC 96
#define NRP 16
#define MAXN 4096 /* the widest B packed whole; wider matrices are done in column bands */

static double panels[(MAXN / NRP) * KC * NRP];

static void pack_slice(int kc, int cols, const double *B, int ldb, double *dst)
{
    for (int j0 = 0; j0 < cols; j0 += NRP, dst += (size_t)kc * NRP)
        for (int p = 0; p < kc; p++)
            for (int j = 0; j < NRP; j++) dst[p * NRP + j] = j0 + j < cols ? B[(size_t)p * ldb + j0 + j] : 0.0;
}

/* Six rows of A (stride lda) against one panel; the first `cols` columns added into C. */
static void kernel_6x16(int kc, const double *restrict A, int lda, const double *restrict panel, double *restrict C, int ldc,
                        int cols)
{
    double r0[NRP] = {0}, r1[NRP] = {0}, r2[NRP] = {0}, r3[NRP] = {0}, r4[NRP] = {0}, r5[NRP] = {0};
    const double *a0 = A, *a1 = A + lda, *a2 = A + 2 * (size_t)lda, *a3 = A + 3 * (size_t)lda, *a4 = A + 4 * (size_t)lda,
                 *a5 = A + 5 * (size_t)lda;
    for (int p = 0; p < kc; p++, panel += NRP)
        for (int j = 0; j < NRP; j++) {
            r0[j] += a0[p] * panel[j];
            r1[j] += a1[p] * panel[j];
            r2[j] += a2[p] * panel[j];
            r3[j] += a3[p] * panel[j];
            r4[j] += a4[p] * panel[j];
            r5[j] += a5[p] * panel[j];
        }
    for (int j = 0; j < cols; j++) {
        C[j] += r0[j];
        C[ldc + j] += r1[j];
        C[2 * (size_t)ldc + j] += r2[j];
        C[3 * (size_t)ldc + j] += r3[j];
        C[4 * (size_t)ldc + j] += r4[j];
        C[5 * (size_t)ldc + j] += r5[j];
    }
}

static void kernel_1x16(int kc, const double *restrict A, const double *restrict panel, double *restrict C, int cols)
{
    double r[NRP] = {0};
    for (int p = 0; p < kc; p++, panel += NRP)
        for (int j = 0; j < NRP; j++) r[j] += A[p] * panel[j];
    for (int j = 0; j < cols; j++) C[j] += r[j];
}

/* Columns [0, cols) of C += A B, cols <= MAXN. */
static void band(int m, int cols, int k, const double *A, const double *B, int ldb, double *C, int ldc)
{
    for (int p0 = 0; p0 < k; p0 += KC) {
        int kc = smaller(KC, k - p0);
        pack_slice(kc, cols, B + (size_t)p0 * ldb, ldb, panels);
        for (int i0 = 0; i0 < m; i0 += MC) {
            int i1 = smaller(i0 + MC, m), six = i0 + (i1 - i0) / 6 * 6;
            for (int j0 = 0; j0 < cols; j0 += NRP) {
                const double *panel = panels + (size_t)(j0 / NRP) * kc * NRP;
                int w = smaller(NRP, cols - j0);
                for (int i = i0; i < six; i += 6)
                    kernel_6x16(kc, A + (size_t)i * k + p0, k, panel, C + (size_t)i * ldc + j0, ldc, w);
                for (int i = six; i < i1; i++) kernel_1x16(kc, A + (size_t)i * k + p0, panel, C + (size_t)i * ldc + j0, w);
            }
        }
    }
}

void gemm_register(int m, int n, int k, const double *A, const double *B, double *C)
{
    for (int j0 = 0; j0 < n; j0 += MAXN) band(m, smaller(MAXN, n - j0), k, A, B + j0, n, C + j0, n);
}
