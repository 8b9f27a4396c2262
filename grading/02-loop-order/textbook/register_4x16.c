/* textbook: register
 * Register blocking as the handout and the tutorials teach it, in plain C: the 4 x 16 block of C
 * the starter suggests, held in four small local arrays (one a row of C) for a whole run of k:
 * four values of A and one packed row of 16 of B a step, 64 multiply-adds, no loads or stores of
 * C. The slice of B it reads is first copied into a contiguous local buffer (packing: rows of B
 * 8 KiB apart would compete for the same L1 sets), and k runs in blocks of 256 so the slice stays
 * in L1. Edges (m or n not multiples of 4 or 16) fall back to i-k-j. Graded on `register` only
 * (the other stages do nothing): a technique-correct textbook kernel must pass. */
#include "planted/common.h"

#define PLANT_STAGES "register"
#define KC 256

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
        for (int x = 0; x < 16; x++) {
            c0[x] += x0 * bp[x];
            c1[x] += x1 * bp[x];
            c2[x] += x2 * bp[x];
            c3[x] += x3 * bp[x];
        }
    }
    for (int x = 0; x < 16; x++) r0[x] = c0[x], r1[x] = c1[x], r2[x] = c2[x], r3[x] = c3[x];
}

static void mm(int m, int n, int k, const double *A, const double *B, double *C)
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
        for (int i = 0; i < m; i++) /* the edges, i-k-j: rows past m4 (every column), columns past n16 */
            for (int p = p0; p < p0 + kc; p++) {
                double a = A[(size_t)i * k + p];
                for (int j = i < m4 ? n16 : 0; j < n; j++) C[(size_t)i * n + j] += a * B[(size_t)p * n + j];
            }
    }
}

#include "planted/entry_points.h"
