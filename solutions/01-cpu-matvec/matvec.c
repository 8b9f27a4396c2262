/* matvec.c - lab 01 reference: y = A x on one core, three ways. */
#include <stddef.h>

#include "matvec.h"

/* Stage 1: one dot product per row. Each add waits for the previous one (the compiler may not
 * reorder floating-point sums), so this runs at one add per FMA latency, not at memory speed. */
void matvec_rows(int m, int n, const double *const *A, const double *x, double *y)
{
    for (int i = 0; i < m; i++) {
        double sum = 0.0;
        for (int j = 0; j < n; j++) sum += A[i][j] * x[j];
        y[i] = sum;
    }
}

/* Stage 2: the same loop over one block: a single stream of addresses for the prefetcher,
 * but the same dependency chain, so expect little change at DRAM sizes. */
void matvec_contiguous(int m, int n, const double *A, const double *x, double *y)
{
    for (int i = 0; i < m; i++) {
        const double *a = A + (size_t)i * n;
        double sum = 0.0;
        for (int j = 0; j < n; j++) sum += a[j] * x[j];
        y[i] = sum;
    }
}

/* How far ahead (in doubles) stage 3 asks for rows of A: 8 KiB, enough lines in flight to cover
 * DRAM latency on one core. The hardware prefetcher alone leaves about 10% of bandwidth unused,
 * because it stops at 4 KiB page boundaries and ramps up slowly on each new row. */
#define PREFETCH_AHEAD 1024

/* Stage 3: four independent chains keep four FMAs in flight, enough to outrun DRAM on one
 * core. The remainder loop takes the last n % 4 columns. */
void matvec_unrolled(int m, int n, const double *A, const double *x, double *y)
{
    int n4 = n - n % 4;
    for (int i = 0; i < m; i++) {
        const double *a = A + (size_t)i * n;
        double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
        for (int j = 0; j < n4; j += 4) {
            /* one request per 64-byte line (8 doubles); running past the end of A is harmless:
             * a prefetch never faults */
            if (j % 8 == 0) __builtin_prefetch(a + j + PREFETCH_AHEAD);
            s0 += a[j] * x[j];
            s1 += a[j + 1] * x[j + 1];
            s2 += a[j + 2] * x[j + 2];
            s3 += a[j + 3] * x[j + 3];
        }
        for (int j = n4; j < n; j++) s0 += a[j] * x[j];
        y[i] = (s0 + s1) + (s2 + s3);
    }
}
