/* expect: not-judged|technique in matmul
 * threats: 36 (rows of ../shared/GRADER_THREATS.md)
 * Serial code dressed as parallel: thread 0 does the whole product while every other thread of
 * the team keeps its CPU busy with work it throws away, so the kernel's count of CPU time shows
 * every thread at work. No faster than the one-thread baseline the grader times (plain i-k-j, as
 * its thread 0 runs), so mostly not judged (UNJUDGED: no speed credit, for a busy thread is not a
 * useful one and only a speedup earns it). But beside a neighbour holding one of two cores no
 * speed figure tells it from parallel code: it read 1.35x, a pass, in a CI run (2026-11-28). So a
 * pass is probed: with every thread on one CPU and thread 0 given it only when the others leave
 * it idle, the spinning threads take it and the call does not end: technique, the work is not
 * shared (judge.c, judge_shared). (Where the grader says BUSY, its test grades it again.) */
#include <omp.h>

#include "planted/common.h"
#include "parallel.h"

#define PLANT_STAGES "matmul"
static void mv(int m, int n, const double *A, const double *x, double *y) { serial_matvec(m, n, A, x, y); }
static double dt(int n, const double *x, const double *y) { return (void)n, (void)x, (void)y, 0.0; }

static void mm(int m, int n, int k, const double *A, const double *B, double *C)
{
    int done = 0;
#pragma omp parallel
    {
        if (omp_get_thread_num() == 0) {
            serial_matmul(m, n, k, A, B, C);
            __atomic_store_n(&done, 1, __ATOMIC_RELEASE);
        } else {
            double waste = 0;
            for (size_t i = 0; !__atomic_load_n(&done, __ATOMIC_ACQUIRE); i = (i + 1) % ((size_t)m * k))
                waste += A[i] * 1e-300; /* busy, and nothing written */
            if (waste == 12345.0) C[0] += 0; /* keep the loop */
        }
    }
}

#include "planted/entry_points.h"
