/* blas_probe.c - OpenBLAS's dgemm rate on this machine, measured in a process of its own because
 * OpenBLAS reads OPENBLAS_CORETYPE and OPENBLAS_NUM_THREADS only when it loads.
 *
 *   blas-probe M N K     C += A B with A M x K, B K x N, row-major, on random data
 *   blas-probe corename  only the kernel OpenBLAS chose (it chooses when it loads: nothing is timed)
 *
 * Prints "corename = ..." (the kernel OpenBLAS chose) and "dgemm_gflops = ..." (median of 5
 * after a warm-up). The scorer runs it, checks the core name against the CPU, and runs it again
 * with OPENBLAS_CORETYPE set when OpenBLAS fell back to a generic kernel. */
#define _POSIX_C_SOURCE 200809L
#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "stats.h"
#include "util.h"

char *openblas_get_corename(void);

int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "corename")) {
        printf("corename = %s\n", openblas_get_corename());
        return 0;
    }
    if (argc != 4) {
        fprintf(stderr, "usage: blas-probe M N K\n");
        return 2;
    }
    int m = atoi(argv[1]), n = atoi(argv[2]), k = atoi(argv[3]);
    double *a = xmalloc(sizeof(double) * (size_t)m * k), *b = xmalloc(sizeof(double) * (size_t)k * n);
    double *c = xcalloc((size_t)m * n, sizeof(double)), t[6];
    for (size_t i = 0; i < (size_t)m * k; i++) a[i] = (double)(i % 13) / 13 - 0.5;
    for (size_t i = 0; i < (size_t)k * n; i++) b[i] = (double)(i % 7) / 7 - 0.5;
    /* each sample repeats the call for at least 50 ms, so small shapes are timed as well as big ones */
    int reps = 1;
    for (int r = 0; r < 6; r++) {
        double t0 = now_s();
        for (int i = 0; i < reps; i++)
            cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0, a, k, b, n, 1.0, c, n);
        t[r] = (now_s() - t0) / reps;
        if (r == 0) reps = t[0] < 0.05 ? (int)(0.05 / t[0]) + 1 : 1;
    }
    printf("corename = %s\ndgemm_gflops = %.2f\n", openblas_get_corename(), 2.0 * m * n * k / median(t + 1, 5) * 1e-9);
    return c[0] == 12345.678; /* keep the result alive */
}
