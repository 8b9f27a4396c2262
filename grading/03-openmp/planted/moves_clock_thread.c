/* expect: too-slow in matvec
 * threats: 38 (rows of ../shared/GRADER_THREATS.md)
 * Moves the runner's clock from a second thread. On a timed call thread 0 does the product twice
 * over, alone (too slow for the stage), while thread 1 finds the runner's start of the call
 * on thread 0's stack (a struct timespec just before the moment the call began, read with a raw
 * clock_gettime: no symbol for the audit) and keeps moving it forward until thread 0 is done, so
 * that the runner's own figure reads a sixth of the call. Both threads are busy, so the CPU count
 * looks parallel. The scorer believes the runner's figure only down to its own time less an empty
 * call's round trip and clock_slack_us, wherever that figure was kept and whoever moved it. */
#include <stddef.h>

#include <omp.h>

#include "planted/common.h"
#include "parallel.h"

#define PLANT_STAGES "matvec"

struct ts { long sec, nsec; };

static double raw_now(void)
{
    struct ts t;
    long nr = 228; /* clock_gettime(CLOCK_MONOTONIC, &t) */
    __asm__ volatile("syscall" : "+a"(nr) : "D"(1L), "S"(&t) : "rcx", "r11", "memory");
    return (double)t.sec + 1e-9 * (double)t.nsec;
}

static double secs(struct ts t) { return (double)t.sec + 1e-9 * (double)t.nsec; }

/* Thread 1's work: the timespecs on the callers' frames (from `frame` up, 1.5 KiB) that read as a
 * moment just before `start`, set to now less a third of the time since `start`, until `done`. */
static void move_clock(volatile long *frame, double start, volatile int *done)
{
    int at[8], n = 0;
    for (int k = 0; k < 192 && n < 8; k++) {
        struct ts t = {frame[k], frame[k + 1]};
        double before = start - secs(t);
        if (t.nsec >= 0 && t.nsec < 1000000000 && before >= 0 && before < 0.005) at[n++] = k;
    }
    for (int last = 0; !last;) {
        last = *done;
        double now = raw_now(), moved = now - (now - start) / 6;
        for (int i = 0; i < n; i++) {
            frame[at[i]] = (long)moved;
            frame[at[i] + 1] = (long)((moved - (double)(long)moved) * 1e9);
        }
        for (int p = 0; p < 2000 && !last; p++) __builtin_ia32_pause(); /* leave the core's memory to thread 0 */
    }
}

static void __attribute__((noinline)) mv(int m, int n, const double *A, const double *x, double *y)
{
    if ((size_t)m * n <= (1u << 22)) return par_matvec(m, n, A, x, y); /* correctness cases: honest */
    double start = raw_now();
    volatile long *frame = __builtin_frame_address(0);
    volatile int done = 0;
#pragma omp parallel
    {
        if (omp_get_thread_num() == 0) {
            for (int r = 0; r < 2; r++) serial_matvec(m, n, A, x, y);
            done = 1;
        } else if (omp_get_thread_num() == 1) move_clock(frame, start, &done);
    }
}

static double dt(int n, const double *x, const double *y) { (void)n, (void)x, (void)y; return 0.0; }
static void mm(int m, int n, int k, const double *A, const double *B, double *C) { (void)m, (void)n, (void)k, (void)A, (void)B, (void)C; }

#include "planted/entry_points.h"
