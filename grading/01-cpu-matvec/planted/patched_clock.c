/* expect: too-slow in contiguous
 * threats: 35 (rows of ../shared/GRADER_THREATS.md)
 * diagnosis: disagreed with the grader's
 * Patches the runner's timing in memory: on a timed call it does the product four times (so it
 * is four times too slow), then finds the runner's start time on the stack above its own frame
 * (a struct timespec just before the moment the call began, read with a raw clock_gettime) and
 * moves it forward, so the runner measures a quarter of the call: a plausible, passing time. The
 * scorer times every call itself and uses the runner's figure only where the two agree. (The rows
 * stage calls the product a row at a time, all of them small: honest there.) */
#include <stddef.h>
#include "matvec.h"

struct ts { long sec, nsec; };

static void raw_clock(struct ts *t)
{
    long r;
    __asm__ volatile("syscall" : "=a"(r) : "a"(228L), "D"(1L), "S"(t) : "rcx", "r11", "memory"); /* MONOTONIC */
    (void)r;
}

static double secs(struct ts t) { return (double)t.sec + 1e-9 * (double)t.nsec; }

static void once(int m, int n, const double *A, const double *x, double *y)
{
    for (int i = 0; i < m; i++) {
        double s = 0;
        for (int j = 0; j < n; j++) s += A[(size_t)i * n + j] * x[j];
        y[i] = s;
    }
}

static void __attribute__((noinline)) product(int m, int n, const double *A, const double *x, double *y)
{
    struct ts begin, end;
    raw_clock(&begin);
    once(m, n, A, x, y);
    if ((size_t)m * n <= (1u << 20)) return; /* correctness cases: honest */
    for (int r = 0; r < 3; r++) once(m, n, A, x, y);
    raw_clock(&end);
    double quarter = (secs(end) - secs(begin)) / 4;
    volatile long *sp = __builtin_frame_address(0);
    for (int k = 0; k < 192; k++) { /* 1.5 KiB of the callers' frames */
        struct ts t = {sp[k], sp[k + 1]};
        double before = secs(begin) - secs(t);
        if (t.nsec >= 0 && t.nsec < 1000000000 && before >= 0 && before < 0.005) {
            double moved = secs(end) - quarter;
            sp[k] = (long)moved;
            sp[k + 1] = (long)((moved - (double)(long)moved) * 1e9);
        }
    }
}

#include "planted/entry_points.h"
