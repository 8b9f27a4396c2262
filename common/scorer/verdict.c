/* verdict.c - see verdict.h: the rules a stage's verdict follows, on its recorded figures. Nothing
 * here measures, runs or reads a file: the unit tests feed these functions figures and check what
 * they decide. */
#include "verdict.h"

#include <math.h>
#include <string.h>

double required_fraction(double required, double over, double chain, double ceiling)
{
    /* to 0.1%, down: the table prints it so */
    return over > 0 && chain > 0 && ceiling > 0 ? fmin(required, floor(1000 * over * chain / ceiling) / 1000) : required;
}

void speed_ceiling(stage_result *res, double roof, double fp32, double chain)
{
    res->ceiling_gflops = roof;
    res->fp32_bound = fp32 > 0 && fp32 < res->ceiling_gflops;
    if (res->fp32_bound) res->ceiling_gflops = fp32;
    res->chain_bound = chain > 0 && chain < res->ceiling_gflops;
    if (res->chain_bound) res->ceiling_gflops = chain;
}

int worth_measuring_library_again(double fraction, double threshold, int gpu)
{
    double near = threshold > 0 ? fraction / threshold : 0;
    return near >= 1 && (gpu || near < CONFIRM_WITHIN);
}

double impossible_above(double margin, double bound) { return margin * bound; }

void pipeline_keep_faster(pipeline_times *t, const pipeline_times *u)
{
    t->h2d = fmin(t->h2d, u->h2d), t->kernel = fmin(t->kernel, u->kernel), t->d2h = fmin(t->d2h, u->d2h);
    t->kernel_best = fmin(t->kernel_best, u->kernel_best);
}

int kernels_under_copies(const trace_event *ev, int n)
{
    int found = 0;
    for (int k = 0; k < n; k++) {
        if (ev[k].kind != TRACE_KERNEL) continue;
        for (int c = 0; c < n; c++)
            if (ev[c].kind == TRACE_H2D && ev[c].stream != ev[k].stream && ev[c].t0 < ev[k].t1 && ev[k].t0 < ev[c].t1) {
                found++;
                break;
            }
    }
    return found;
}

void speed_points(stage_result *res, double partial_from)
{
    res->fast_enough = res->fraction >= res->required;
    double from = partial_from * res->required;
    double credit = res->required > from ? (res->fraction - from) / (res->required - from) : res->fast_enough;
    res->points_speed = res->max_speed * fmin(1.0, fmax(0.0, credit));
}

/* CPUs' worth of time the code's threads lost while timed: standing ready for a CPU another process
 * held (res->waited), or that the host of this virtual machine took (res->stolen). */
double lost_cpus(const stage_result *res) { return fmax(res->stolen, 0) + fmax(res->waited, 0); }

int worth_timing_again(const stage_result *res)
{
    return res->stolen < 0 || res->waited < 0 || lost_cpus(res) >= LOST_BUSY || res->fraction >= RETIME_WITHIN * res->required;
}

/* The CPUs' worth of time the code's threads wanted while it was called: the kernel's count of the
 * runner's CPU time over its calls (res->cpus: session.c) and what they lost. A busy neighbour
 * lowers the first and raises the second; nothing but more runnable threads raises the sum. */
double cpus_wanted(const stage_result *res) { return res->cpus + lost_cpus(res); }

/* Whether the code's threads worked while it was called: cpus_wanted at least 1 + (threads - 1) / 4.
 * Serial code reads 1.0; parallel code 1.25-1.66 CPUs busy of 2 on lab 03's matvec (its calls, 6 ms,
 * include the channel's wake-ups) with up to 0.47 more waiting on a machine where kernel threads
 * were at work, 1.7-2.0 on its matmul (docs/BENCHMARKS.md, 2026-11-26). Code can raise the count by
 * spinning, never lower it: a verdict it raises earns no points (see the callers). */
int threads_worked(const stage_result *res, int threads) { return cpus_wanted(res) >= 1 + 0.25 * (threads - 1); }

/* What a compute-bound stage's figures say about its speedup over the one-thread baseline
 * (res->speedup: its rate at the lab's threads over the baseline's; res->speedup_required), in this
 * order; `lib` is OpenBLAS's own gain from one thread to `threads` measured just after (-1: not
 * measured; speedup_needs_library says when it is needed). A pure rule on recorded figures. */
int speedup_verdict(const stage_result *res, int threads, double lib)
{
    /* the kernel's count says one thread worked: a failure, whatever the machine did (a neighbour
     * lowers the CPU count only by raising the waits counted with it) */
    if (res->cpus >= 0 && !threads_worked(res, threads)) return SPEEDUP_SERIAL;
    if (res->speedup >= res->speedup_required) return SPEEDUP_OK;
    /* the threads lost CPU time to others while timed: that time given back decides */
    if (lost_cpus(res) >= LOST_BUSY)
        return passes_given_back(res, "no-speedup", threads) ? SPEEDUP_BUSY_LOST : SPEEDUP_SHORT_LOST;
    /* nothing lost, and the library can't gain from the cores either (two vCPUs on one core, ...):
     * BUSY where the cores' full gain, which the library shows is missing now, would have made it pass
     * (a requirement above the thread count, as blocked's 4x over i-k-j on 2 cores, is mostly the
     * technique's gain, which no machine excuses) */
    if (lib > 0 && res->speedup * threads / fmin(lib, threads) >= res->speedup_required) return SPEEDUP_BUSY_LIBRARY;
    return SPEEDUP_SHORT;
}

int speedup_needs_library(const stage_result *res, int threads)
{
    return !(res->cpus >= 0 && !threads_worked(res, threads)) && res->speedup < res->speedup_required &&
           lost_cpus(res) < LOST_BUSY;
}

double given_back(const stage_result *res, const char *reason)
{
    double lost = lost_cpus(res);
    if (lost < LOST_BUSY || res->cpus <= 0) return 0;
    double back = (res->cpus + lost) / res->cpus;
    return !strcmp(reason, "too-slow") ? res->fraction * back : !strcmp(reason, "no-speedup") ? res->speedup * back : 0;
}

int passes_given_back(const stage_result *res, const char *reason, int threads)
{
    /* code that must run on every thread and kept one busy stays serial, whatever it was given back */
    if (threads > 1 && res->speedup_required > 0 && res->cpus >= 0 && !threads_worked(res, threads)) return 0;
    double figure = given_back(res, reason);
    if (!strcmp(reason, "too-slow")) return figure > 0 && figure >= res->required;
    return !strcmp(reason, "no-speedup") && figure > 0 && figure >= res->speedup_required &&
           (threads < 2 || threads_worked(res, threads)); /* which counts the lost time already */
}

