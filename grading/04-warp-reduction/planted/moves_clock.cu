/* expect: too-slow in vector_add
 * threats: 38 (rows of ../shared/GRADER_THREATS.md)
 * Moves the runner's clock: at the timed sizes it does half as much work again (sum) or twice the
 * work (add: 45% of the copy on an H100 where `vector_add` needs 60%), too slow for these stages, waits for the device, then finds the runner's wall-clock start
 * of the call on the stack above its own frame (a double just before now, read with a raw
 * clock_gettime) and moves it forward, so that the runner's figure (the lower of its events and its
 * wall clock) reads two thirds of the call: a passing time, inside the window the scorer used to
 * allow (5% + clock_slack_us + the digest's allowance below its own time). The scorer believes the runner's figure only down to its own time less the round
 * trip of an empty call timed before any student code ran in that runner. (`shuffle` and
 * `vectorized` run the same sum without a shuffle or a float4: reported "technique", never timed.) */
#include "reduce.h"
#include "planted/common_kernels.h"

static double raw_now(void)
{
    struct { long sec, nsec; } t;
    long nr = 228; /* clock_gettime(CLOCK_MONOTONIC, &t) */
    __asm__ volatile("syscall" : "+a"(nr) : "D"(1L), "S"(&t) : "rcx", "r11", "memory");
    return (double)t.sec + 1e-9 * (double)t.nsec;
}

/* Every double on the callers' frames that reads as a moment of the call (after `start`) becomes
 * now - two thirds of the time since `start`: the runner's wall clock then reads that. */
static void __attribute__((noinline)) claim(double start)
{
    cudaDeviceSynchronize();
    double now = raw_now();
    volatile double *sp = (volatile double *)__builtin_frame_address(0);
    for (int k = 0; k < 256; k++) /* 2 KiB of the callers' frames */
        if (sp[k] > start - 0.02 && sp[k] < now) sp[k] = now - (now - start) / 1.5;
}

static void sum(int n, const float *in, float *out, float *work)
{
    if (n < (1 << 28)) return honest_sum(n, in, out, work); /* correctness cases: honest */
    double start = raw_now();
    honest_sum(n / 2, in, out, work);
    honest_sum(n, in, out, work);
    claim(start);
}

static void add_more(int n, const float *a, const float *b, float *c)
{
    if (n < (1 << 27)) return add(n, a, b, c);
    double start = raw_now();
    add(n, a, b, c);
    add(n, a, b, c);
    claim(start);
}
#define add add_more

#include "planted/entry_points.h"
