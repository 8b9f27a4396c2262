/* expect: technique|too-slow in matvec,matmul
 * threats: 36 (rows of ../shared/GRADER_THREATS.md)
 * A fast serial kernel dressed as parallel: thread 0 does each call alone, with a kernel good enough
 * to meet the stage's speedup by itself (four row sums at a time for matvec, as fast as one thread
 * streams memory; lab 02's 4 x 16 register blocks for matmul, several times the grader's i-k-j
 * baseline), while every other thread of the team spins, so the kernel's count of CPU time shows
 * all of them at work. Neither speed nor that count tells it from parallel code: it earned the
 * speed points of matvec, matmul and blocked (the same kernel) until the grader probed for shared
 * work (judge.c, judge_shared): with every thread on one CPU and thread 0 given it only when the
 * others leave it idle, the spinners take it and the call does not end. Graded on matvec and matmul
 * (blocked does nothing: its timed shape costs make check half a minute; the study in
 * docs/BENCHMARKS.md graded all three). One thread streams at most the one-thread roof, which on a
 * 2-CPU VM is under half the two threads' triad: this matvec read 39-44% of a ceiling that asks 40%
 * there (2026-11-29), so it is either too slow or, at 40% and over, caught by the probe; matmul, at
 * 25% of OpenBLAS against 2.5%, always reaches the probe. Either way no speed points. */
#include <omp.h>

#include "planted/common.h"
#include "parallel.h"

#define PLANT_STAGES "matvec,matmul"
#define KC 256

/* Every thread but 0 spins (reading `A`, writing nothing) until thread 0 has run `work`. */
#define ALONE_BESIDE_SPINNERS(A, count, work)                                                                   \
    do {                                                                                                      \
        int done_ = 0;                                                                                        \
        _Pragma("omp parallel")                                                                               \
        {                                                                                                     \
            if (omp_get_thread_num() == 0) {                                                                  \
                work;                                                                                         \
                __atomic_store_n(&done_, 1, __ATOMIC_RELEASE);                                                \
            } else {                                                                                          \
                double waste_ = 0;                                                                            \
                for (size_t i_ = 0; !__atomic_load_n(&done_, __ATOMIC_ACQUIRE); i_ = (i_ + 1) % (count))      \
                    waste_ += (A)[i_] * 1e-300;                                                               \
                __asm__ volatile("" : : "x"(waste_));                                                         \
            }                                                                                                 \
        }                                                                                                     \
    } while (0)

static int lesser(int x, int y) { return x < y ? x : y; }

/* C[i.., j..] (4 x 16) += A[i.., p0..p0+kc) times the packed slice b (kc rows of 16) */
static void block_4x16(int n, int k, int i, int j, int p0, int kc, const double *A, const double *b, double *C)
{
    double c0[16], c1[16], c2[16], c3[16];
    double *r0 = C + (size_t)i * n + j, *r1 = r0 + n, *r2 = r1 + n, *r3 = r2 + n;
    const double *a0 = A + (size_t)i * k + p0, *a1 = a0 + k, *a2 = a1 + k, *a3 = a2 + k;
    for (int x = 0; x < 16; x++) c0[x] = r0[x], c1[x] = r1[x], c2[x] = r2[x], c3[x] = r3[x];
    for (int p = 0; p < kc; p++) {
        const double *bp = b + p * 16;
        double x0 = a0[p], x1 = a1[p], x2 = a2[p], x3 = a3[p];
        for (int x = 0; x < 16; x++) c0[x] += x0 * bp[x], c1[x] += x1 * bp[x], c2[x] += x2 * bp[x], c3[x] += x3 * bp[x];
    }
    for (int x = 0; x < 16; x++) r0[x] = c0[x], r1[x] = c1[x], r2[x] = c2[x], r3[x] = c3[x];
}

static void registers(int m, int n, int k, const double *A, const double *B, double *C)
{
    static double packed[KC * 16];
    int m4 = m - m % 4, n16 = n - n % 16;
    for (int p0 = 0; p0 < k; p0 += KC) {
        int kc = lesser(KC, k - p0);
        for (int j = 0; j < n16; j += 16) {
            for (int p = 0; p < kc; p++)
                for (int x = 0; x < 16; x++) packed[p * 16 + x] = B[(size_t)(p0 + p) * n + j + x];
            for (int i = 0; i < m4; i += 4) block_4x16(n, k, i, j, p0, kc, A, packed, C);
        }
        for (int i = 0; i < m; i++) /* the edges, i-k-j */
            for (int p = p0; p < p0 + kc; p++) {
                double a = A[(size_t)i * k + p];
                for (int j = i < m4 ? n16 : 0; j < n; j++) C[(size_t)i * n + j] += a * B[(size_t)p * n + j];
            }
    }
}

static void mv(int m, int n, const double *A, const double *x, double *y)
{
    ALONE_BESIDE_SPINNERS(A, (size_t)m * n, four_rows(m, n, A, x, y));
}
static double dt(int n, const double *x, const double *y) { return (void)n, (void)x, (void)y, 0.0; }
static void mm(int m, int n, int k, const double *A, const double *B, double *C)
{
    ALONE_BESIDE_SPINNERS(A, (size_t)m * k, registers(m, n, k, A, B, C));
}

#include "planted/entry_points.h"
