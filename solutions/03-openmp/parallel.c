/* parallel.c - lab 03 reference: matvec, dot and matrix multiply with OpenMP. Row-major
 * throughout; A m x k (lda = k), B k x n (ldb = n), C m x n (ldc = n) for the multiplies. */
#include <omp.h>
#include <stddef.h>

#include "parallel.h"

static int min(int x, int y) { return x < y ? x : y; }

/* ================================================================ stage 1: matvec */

/* Rows are independent: a static schedule gives each thread one contiguous band of A, which it
 * streams once. Inside a row, `simd reduction` lets the compiler split the sum over vector lanes
 * (several add chains at once), which plain C forbids it to do: lab 01's unrolling, by the compiler. */
void omp_matvec(int m, int n, const double *A, const double *x, double *y)
{
#pragma omp parallel for schedule(static)
    for (int i = 0; i < m; i++) {
        const double *a = A + (size_t)i * n;
        double s = 0;
#pragma omp simd reduction(+ : s)
        for (int j = 0; j < n; j++) s += a[j] * x[j];
        y[i] = s;
    }
}

/* ================================================================ stage 2: dot */

/* Each thread sums its share into a private copy of s, and OpenMP adds the copies at the end.
 * `simd` also lets the compiler reorder each thread's sum into vector lanes (several chains),
 * which plain C forbids it to do. */
double omp_dot(int n, const double *x, const double *y)
{
    double s = 0;
#pragma omp parallel for simd reduction(+ : s) schedule(static)
    for (int i = 0; i < n; i++) s += x[i] * y[i];
    return s;
}

/* ================================================================ stage 3: matmul */

/* collapse(2) makes one iteration space of row blocks x column blocks, so even a matrix with
 * fewer row blocks than threads keeps every thread busy. Each iteration owns an IB x JB block of
 * C: no two threads write the same element, so no reduction or atomic is needed. Inside, a row's
 * JB-wide strip of C stays in registers (JB / 4 vector registers) for the whole k loop, so each
 * step loads one row of B's strip and does JB fused multiply-adds; the k x JB strip of B (256 KiB
 * at k = 512) stays in this core's L2 for all IB rows. */
#define IB 16
#define JB 32

static void strip(int k, int n, int w, const double *a, const double *B, double *c)
{
    double acc[JB];
    for (int j = 0; j < JB; j++) acc[j] = j < w ? c[j] : 0;
    if (w == JB) /* the common case, a constant trip count the compiler unrolls into registers */
        for (int p = 0; p < k; p++)
            for (int j = 0; j < JB; j++) acc[j] += a[p] * B[(size_t)p * n + j];
    else
        for (int p = 0; p < k; p++)
            for (int j = 0; j < w; j++) acc[j] += a[p] * B[(size_t)p * n + j];
    for (int j = 0; j < w; j++) c[j] = acc[j];
}

void omp_matmul(int m, int n, int k, const double *A, const double *B, double *C)
{
    int mb = (m + IB - 1) / IB, nb = (n + JB - 1) / JB;
#pragma omp parallel for collapse(2) schedule(static)
    for (int ib = 0; ib < mb; ib++)
        for (int jb = 0; jb < nb; jb++) {
            int j0 = jb * JB;
            for (int i = ib * IB; i < min(ib * IB + IB, m); i++)
                strip(k, n, min(JB, n - j0), A + (size_t)i * k, B + j0, C + (size_t)i * n + j0);
        }
}

/* ================================================================ stage 4: blocked */

/* Lab 02's register-blocked kernel: a 4 x 16 block of C in registers across a KC-long stretch of
 * k, B packed into a KC x 16 panel, A blocked MC rows at a time so a block stays in one core's L2.
 * Parallel over (row block, column panel) pairs: each pair writes its own MC x 16 piece of C, and
 * each thread packs into its own panel (declared inside the loop, so private). */
#define NR 16
#define KC 384
#define MC 192

/* The lab's flags prefer 256-bit vectors (thresholds.conf); this kernel asks for the widest the core
 * has, 512 bits where there is AVX-512 (77% of OpenBLAS against 44% at 256 on a Xeon VM,
 * docs/BENCHMARKS.md). Elsewhere the attribute changes nothing. */
__attribute__((noinline, target("prefer-vector-width=512")))
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

/* Rows [i0, i1) and columns [j0, j0 + w) of C += A[., p0 .. p0+kc) B[p0 .. p0+kc, .), i-k-j. */
static void edge(int i0, int i1, int j0, int w, int p0, int kc, int n, int k, const double *A, const double *B,
                 double *C)
{
    for (int i = i0; i < i1; i++)
        for (int p = p0; p < p0 + kc; p++) {
            double x = A[(size_t)i * k + p];
            for (int j = j0; j < j0 + w; j++) C[(size_t)i * n + j] += x * B[(size_t)p * n + j];
        }
}

void omp_blocked(int m, int n, int k, const double *A, const double *B, double *C)
{
    /* Row blocks of at most MC rows, as many as a multiple of the thread count and of equal
     * height (a multiple of 4), so the static schedule gives every thread the same work. */
    int nt = omp_get_max_threads(), nib = nt * ((m + nt * MC - 1) / (nt * MC));
    int mc = ((m + nib - 1) / nib + 3) / 4 * 4, njb = (n + NR - 1) / NR;
    nib = (m + mc - 1) / mc;
    for (int p0 = 0; p0 < k; p0 += KC) { /* k blocks in order: each adds into all of C */
        int kc = min(KC, k - p0);
#pragma omp parallel for collapse(2) schedule(static)
        for (int ib = 0; ib < nib; ib++)
            for (int jb = 0; jb < njb; jb++) {
                int i0 = ib * mc, ie = min(i0 + mc, m), i4 = i0 + (ie - i0) / 4 * 4, j = jb * NR;
                if (j + NR > n) { /* the last n % 16 columns */
                    edge(i0, ie, j, n - j, p0, kc, n, k, A, B, C);
                    continue;
                }
                double Bp[KC * NR];
                for (int p = 0; p < kc; p++)
                    for (int jj = 0; jj < NR; jj++) Bp[p * NR + jj] = B[(size_t)(p0 + p) * n + j + jj];
                for (int i = i0; i < i4; i += 4)
                    kernel_4x16(kc, A + (size_t)i * k + p0, k, Bp, C + (size_t)i * n + j, n);
                edge(i4, ie, j, NR, p0, kc, n, k, A, B, C); /* the last m % 4 rows */
            }
    }
}
