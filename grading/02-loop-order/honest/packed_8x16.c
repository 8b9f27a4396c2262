/* honest: the loop orders written with pointer walks instead of index expressions; cache
 * blocking with k blocks outermost and every row of C passing over a 128 x 256 block of B; and
 * a GotoBLAS-style register kernel,
 * 8 x 16, with both A and B packed (zero-padded, so the kernel never sees an edge) and the edges
 * handled when the tile is added to C.
 * A correct submission written differently from the reference: the grader must pass it. */
#include <stddef.h>

#include "gemm.h"

/* ================================================================ stage 1: loop orders */

void gemm_ijk(int m, int n, int k, const double *A, const double *B, double *C)
{
    for (int i = 0; i < m; i++) {
        const double *arow = A + (size_t)i * k;
        double *crow = C + (size_t)i * n;
        for (int j = 0; j < n; j++) {
            const double *b = B + j;
            double s = 0;
            for (int p = 0; p < k; p++, b += n) s += arow[p] * *b;
            crow[j] += s;
        }
    }
}

void gemm_ikj(int m, int n, int k, const double *A, const double *B, double *C)
{
    for (int i = 0; i < m; i++) {
        double *restrict crow = C + (size_t)i * n;
        for (int p = 0; p < k; p++) {
            const double a = A[(size_t)i * k + p], *restrict brow = B + (size_t)p * n;
            for (int j = 0; j < n; j++) crow[j] += a * brow[j];
        }
    }
}

void gemm_jik(int m, int n, int k, const double *A, const double *B, double *C)
{
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            const double *arow = A + (size_t)i * k, *b = B + j;
            double s = 0;
            for (int p = 0; p < k; p++, b += n) s += arow[p] * *b;
            C[(size_t)i * n + j] += s;
        }
}

void gemm_jki(int m, int n, int k, const double *A, const double *B, double *C)
{
    for (int j = 0; j < n; j++)
        for (int p = 0; p < k; p++) {
            const double b = B[(size_t)p * n + j], *a = A + p;
            double *c = C + j;
            for (int i = 0; i < m; i++, a += k, c += n) *c += *a * b;
        }
}

void gemm_kij(int m, int n, int k, const double *A, const double *B, double *C)
{
    for (int p = 0; p < k; p++) {
        const double *restrict brow = B + (size_t)p * n;
        for (int i = 0; i < m; i++) {
            const double a = A[(size_t)i * k + p];
            double *restrict crow = C + (size_t)i * n;
            for (int j = 0; j < n; j++) crow[j] += a * brow[j];
        }
    }
}

void gemm_kji(int m, int n, int k, const double *A, const double *B, double *C)
{
    for (int p = 0; p < k; p++)
        for (int j = 0; j < n; j++) {
            const double b = B[(size_t)p * n + j], *a = A + p;
            double *c = C + j;
            for (int i = 0; i < m; i++, a += k, c += n) *c += *a * b;
        }
}

/* ================================================================ stage 2: cache blocking */

/* A 128 x 256 block of B (256 KiB, in L2) is used by every row of C before the next block is
 * loaded, so B comes from memory once; a row's 256-wide strip of C (2 KiB) stays in L1 over the
 * 128 steps of p. (128 rows of B, 8 KiB apart at n = 1024, still fit L2's 16 ways.) */
#define PB 128
#define JB 256

static int lesser(int x, int y) { return x < y ? x : y; }

void gemm_blocked(int m, int n, int k, const double *A, const double *B, double *C)
{
    for (int p0 = 0; p0 < k; p0 += PB)
        for (int j0 = 0; j0 < n; j0 += JB) {
            int j1 = lesser(j0 + JB, n), p1 = lesser(p0 + PB, k);
            for (int i = 0; i < m; i++) {
                double *restrict crow = C + (size_t)i * n;
                for (int p = p0; p < p1; p++) {
                    const double a = A[(size_t)i * k + p], *restrict brow = B + (size_t)p * n;
                    for (int j = j0; j < j1; j++) crow[j] += a * brow[j];
                }
            }
        }
}

/* ================================================================ stage 3: register blocking */

/* GotoBLAS's loop nest. For each NC-wide band of columns and KC-deep slice of k, B's slice is
 * packed into 16-column panels (p-major: the 16 values of one k step are adjacent, 32 KiB a
 * panel, in L1); for each MC-row block, A's slice is packed into 8-row slivers the same way
 * (MC x KC = 256 KiB, in L2). The kernel keeps an 8 x 16 tile of C in eight named arrays of
 * sixteen doubles, which the compiler makes sixteen 512-bit registers: per k step, two loads
 * of B, eight broadcasts of A, sixteen independent fused multiply-adds (eight would barely
 * cover their latency). Packing pads with zeros, so every tile is full; only the adding of a
 * tile into C knows about the edges. */
#define MR 8
#define NR 16
#define KC 256
#define MC 128
#define NC 1024

static double Apack[MC * KC], Bpack[NC * KC];

/* Rows [i0, i0 + rows) x k-slice [p0, p0 + kc) of A into slivers of MR rows, zero-padded. */
static void pack_a(int rows, int kc, const double *A, int lda, double *dst)
{
    for (int r0 = 0; r0 < rows; r0 += MR, dst += MR * kc)
        for (int p = 0; p < kc; p++)
            for (int r = 0; r < MR; r++) dst[p * MR + r] = r0 + r < rows ? A[(size_t)(r0 + r) * lda + p] : 0.0;
}

/* k-slice x columns [j0, j0 + cols) of B into panels of NR columns, zero-padded. */
static void pack_b(int kc, int cols, const double *B, int ldb, double *dst)
{
    for (int c0 = 0; c0 < cols; c0 += NR, dst += NR * kc)
        for (int p = 0; p < kc; p++)
            for (int c = 0; c < NR; c++) dst[p * NR + c] = c0 + c < cols ? B[(size_t)p * ldb + c0 + c] : 0.0;
}

/* The rows x cols corner of the MR x NR product of a sliver and a panel, added into C. */
static void kernel_8x16(int kc, const double *restrict a, const double *restrict b, double *restrict C, int ldc, int rows,
                       int cols)
{
    double t0[NR] = {0}, t1[NR] = {0}, t2[NR] = {0}, t3[NR] = {0}, t4[NR] = {0}, t5[NR] = {0}, t6[NR] = {0},
           t7[NR] = {0};
    for (int p = 0; p < kc; p++, a += MR, b += NR)
        for (int c = 0; c < NR; c++) {
            t0[c] += a[0] * b[c];
            t1[c] += a[1] * b[c];
            t2[c] += a[2] * b[c];
            t3[c] += a[3] * b[c];
            t4[c] += a[4] * b[c];
            t5[c] += a[5] * b[c];
            t6[c] += a[6] * b[c];
            t7[c] += a[7] * b[c];
        }
#define ROW(r, t) \
    if (r < rows) \
        for (int c = 0; c < cols; c++) C[(size_t)r * ldc + c] += t[c];
    ROW(0, t0) ROW(1, t1) ROW(2, t2) ROW(3, t3) ROW(4, t4) ROW(5, t5) ROW(6, t6) ROW(7, t7)
#undef ROW
}

void gemm_register(int m, int n, int k, const double *A, const double *B, double *C)
{
    for (int j0 = 0; j0 < n; j0 += NC) {
        int nc = lesser(NC, n - j0);
        for (int p0 = 0; p0 < k; p0 += KC) {
            int kc = lesser(KC, k - p0);
            pack_b(kc, nc, B + (size_t)p0 * n + j0, n, Bpack);
            for (int i0 = 0; i0 < m; i0 += MC) {
                int mc = lesser(MC, m - i0);
                pack_a(mc, kc, A + (size_t)i0 * k + p0, k, Apack);
                for (int jr = 0; jr < nc; jr += NR)
                    for (int ir = 0; ir < mc; ir += MR)
                        kernel_8x16(kc, Apack + (size_t)ir * kc, Bpack + (size_t)jr * kc, C + (size_t)(i0 + ir) * n + j0 + jr, n,
                                   lesser(MR, mc - ir), lesser(NR, nc - jr));
            }
        }
    }
}
