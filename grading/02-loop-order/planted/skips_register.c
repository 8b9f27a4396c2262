/* expect: too-slow in register
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * A stage skipped: `register` runs stage 2's code, cache blocking with i-k-j inside (blocks of 64
 * rows of A, 256 of k and 512 columns: a block of B stays in L2 while a row of C is swept), no
 * block of C kept in registers. Right, and in cache at the judged 1024^3; every multiply-add
 * still loads and stores C, which is what register blocking removes. */
#include "planted/common.h"

#define PLANT_STAGES "register"
#define MB 64
#define KB 256
#define NB 512

static int lesser(int x, int y) { return x < y ? x : y; }

static void mm(int m, int n, int k, const double *A, const double *B, double *C)
{
    for (int j0 = 0; j0 < n; j0 += NB)
        for (int p0 = 0; p0 < k; p0 += KB)
            for (int i0 = 0; i0 < m; i0 += MB)
                for (int i = i0; i < lesser(i0 + MB, m); i++)
                    for (int p = p0; p < lesser(p0 + KB, k); p++) {
                        double a = A[(size_t)i * k + p];
                        const double *restrict b = B + (size_t)p * n;
                        double *restrict c = C + (size_t)i * n;
                        for (int j = j0; j < lesser(j0 + NB, n); j++) c[j] += a * b[j];
                    }
}

#include "planted/entry_points.h"
