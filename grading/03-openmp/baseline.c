/* baseline.c - lab 03's one-thread baseline for its compute-bound stages: C += A B in the i-k-j
 * order (A m x k, B k x n, C m x n, row-major), on one thread. The grader compiles it with the
 * lab's own flags (thresholds.conf: cflags) and times it itself, in a process of its own, at each
 * stage's timed shape; a stage's rate at full thread count must reach `<stage>_speedup` times this
 * rate. Nothing of the student's runs while it is timed, so no submission can lower it, as it could
 * its own one-thread run (judge.c, judge_speedup).
 *
 *   baseline M N K     prints "gflops = ...": flops over the least CPU time a call took, and
 *                      "wall_gflops = ...": over the least wall-clock time
 *
 * A call covers the first rows of C only where all M would cost over 10^9 flops (16 rows at least):
 * i-k-j's rate is the same on every row, since each row streams all of B (256 rows of lab 03's
 * past-the-cache shape: 2.16 GFLOP/s on the Xeon VM, 64 rows: 2.08, 32: 2.04), and a call of the
 * whole shape would take seconds of every grading.
 *
 * Why i-k-j: the loop every parallel form of stage 3 starts from (a unit-stride inner loop over a
 * row of C), the technique both stages build on, and already shown in lab 02's handout; a kernel
 * of lab 02's later stages here would hand its answers to every student (this file is in the kit). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double seconds(clockid_t clock)
{
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* C += A B, one row of C at a time: for each a_ip, the row p of B scaled into the row i of C. */
static void __attribute__((noinline)) product(int m, int n, int k, const double *A, const double *B, double *C)
{
    for (int i = 0; i < m; i++) {
        double *restrict row = C + (size_t)i * n;
        for (int p = 0; p < k; p++) {
            const double scale = A[(size_t)i * k + p], *restrict from = B + (size_t)p * n;
            for (int j = 0; j < n; j++) row[j] += scale * from[j];
        }
    }
}

static double *page_aligned(size_t doubles)
{
    size_t bytes = (doubles * sizeof(double) + 4095) / 4096 * 4096;
    return aligned_alloc(4096, bytes);
}

int main(int argc, char **argv)
{
    int m = argc == 4 ? atoi(argv[1]) : 0, n = argc == 4 ? atoi(argv[2]) : 0, k = argc == 4 ? atoi(argv[3]) : 0;
    if (m < 1 || n < 1 || k < 1) {
        fprintf(stderr, "usage: baseline M N K\n");
        return 2;
    }
    const double budget = 1e9; /* flops a call */
    if (m > 16 && 2.0 * m * n * k > budget) m = 2.0 * 16 * n * k > budget ? 16 : (int)(budget / (2.0 * n * k));
    /* Page-aligned, as the runner lays out the student's buffers (common/runner/runner.c): from
     * malloc, a large block's data starts 16 bytes into a page, and every 64-byte vector load of it
     * then straddles two cache lines (i-k-j at 512^3 ran at 7.2 GFLOP/s so on a Xeon that reads
     * 11-13 aligned: the baseline read low, and serial code in the runner 1.4x above it). */
    double *A = page_aligned((size_t)m * k), *B = page_aligned((size_t)k * n), *C = page_aligned((size_t)m * n);
    if (!A || !B || !C) return 3;
    for (size_t i = 0; i < (size_t)m * k; i++) A[i] = (double)(i % 13) / 13 - 0.5;
    for (size_t i = 0; i < (size_t)k * n; i++) B[i] = (double)(i % 7) / 7 - 0.5;
    for (size_t i = 0; i < (size_t)m * n; i++) C[i] = 0; /* every page touched before any timing */
    /* Timings of at least 50 ms of calls each, three of them or as many as fit in a second (two at
     * least); per call, the least CPU time (the kernel's count: a neighbour taking turns on the core
     * does not raise it) and the least wall time. */
    double cpu = 1e30, wall = 1e30, start = seconds(CLOCK_MONOTONIC);
    int reps = 1;
    for (int s = 0; s < 3 && (s < 2 || seconds(CLOCK_MONOTONIC) - start < 1.0); s++) {
        double w0 = seconds(CLOCK_MONOTONIC), c0 = seconds(CLOCK_PROCESS_CPUTIME_ID);
        for (int r = 0; r < reps; r++) product(m, n, k, A, B, C);
        double c = (seconds(CLOCK_PROCESS_CPUTIME_ID) - c0) / reps, w = (seconds(CLOCK_MONOTONIC) - w0) / reps;
        cpu = c < cpu ? c : cpu;
        wall = w < wall ? w : wall;
        if (s == 0 && w < 0.05) reps = (int)(0.05 / w) + 1;
    }
    double flops = 2.0 * m * n * k;
    printf("gflops = %.3f\nwall_gflops = %.3f\n", flops / cpu * 1e-9, flops / wall * 1e-9);
    return C[0] == 12345.678; /* keep the result alive */
}
