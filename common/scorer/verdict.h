/* verdict.h - the rules a stage's verdict follows (verdict.c), as pure functions of its recorded
 * figures: what the grader measured (judge.c) goes in, what it decides comes out. The unit tests
 * feed them figures from real gradings, with no machine measured. */
#ifndef VERDICT_H
#define VERDICT_H

#include "grade.h"

/* The fraction of the ceiling a stage needs: thresholds.conf's `required`, or for a stage written as
 * several chains of adds (over: its <stage>_over_chain, 0 for none) that many times one chain's rate
 * (chain, GFLOP/s) over the ceiling where that is lower, to 0.1% down. */
double required_fraction(double required, double over, double chain, double ceiling);
/* The ceiling a timed stage is judged against (res->ceiling_gflops), from the roof measured for it
 * (GFLOP/s: the memory roof, bandwidth times the problem's intensity; the library's rate; or the
 * pipeline's ideal), capped by the FP32 peak measured in the run where the problem may be bound by
 * arithmetic (fp32 > 0), and then by one chain of dependent adds' rate where the stage is written as
 * one chain (chain > 0): res->fp32_bound and res->chain_bound say which cap applied. */
void speed_ceiling(stage_result *res, double roof, double fp32, double chain);
/* Whether a pass against the library's rate (fraction of it, over the stage's threshold) is to be
 * confirmed by measuring the library once more (the faster reading kept) before it stands: a library
 * read low makes a pass too easy. On a CPU a pass within CONFIRM_WITHIN of its threshold (OpenBLAS
 * costs seconds, and reads within 10% of itself); on a GPU every pass (cuBLAS costs a second, and one
 * grading of lab 06 in twenty read it at about half: docs/BENCHMARKS.md). */
int worth_measuring_library_again(double fraction, double threshold, int gpu);
/* The rate above which a time is impossible: the margin in thresholds.conf times the bound (the
 * fastest the machine was seen to stream times the intensity, the library's rate, or the pipeline's
 * ideal with the fastest kernel the probe has). */
double impossible_above(double margin, double bound);
/* How many kernels of a traced call ran while a copy to the device was under way on another stream
 * (their intervals meet): what a pipeline is, where speed cannot show it (a kernel far shorter
 * than its copy, as lab 05's matvec: thresholds.conf's overlap_<stage>). */
int kernels_under_copies(const trace_event *ev, int n);
/* A pipeline's probe measured twice: each part's faster time kept in *t (a copy read slow while a
 * neighbour used the host's memory or link makes every stage's ideal too easy to reach). */
void pipeline_keep_faster(pipeline_times *t, const pipeline_times *u);
/* A timed stage's speed points from res->fraction against res->required: full at the requirement,
 * none at partial_from times it or below, in proportion between; res->fast_enough set. */
void speed_points(stage_result *res, double partial_from);
/* CPUs' worth of time the code's threads lost while timed (res->stolen + res->waited, each at
 * least 0), and wanted (res->cpus plus that); whether they worked: wanted at least 1 + (threads - 1) / 4. */
double lost_cpus(const stage_result *res);
double cpus_wanted(const stage_result *res);
int threads_worked(const stage_result *res, int threads);
/* Whether a stage that fell short (reason "too-slow" or "no-speedup") would have passed had its threads
 * not lost CPU time while it was timed, at least LOST_BUSY CPUs of it: to the host of this virtual
 * machine (res->stolen, steal time) or waiting, ready, for a CPU another process held (res->waited,
 * the run queue). Both are the kernel's counts, which code can raise only by keeping more threads
 * busy than there are CPUs (and then its CPU count is high too). Its rate and speedup are scaled by
 * the CPUs it used over those plus the lost ones, its CPU count raised by the lost ones: serial code
 * stays serial, and slow code slow. */
int passes_given_back(const stage_result *res, const char *reason, int threads);
/* The figure passes_given_back compares, the one a BUSY note states: the fraction of the ceiling
 * ("too-slow") or the speedup ("no-speedup") times (cpus + lost) / cpus; 0 where under LOST_BUSY
 * CPUs were lost. A threaded stage's code that kept one thread busy never passes given back. */
double given_back(const stage_result *res, const char *reason);
/* Whether a stage that fell short of its fraction ("too-slow") is worth timing again: within
 * RETIME_WITHIN of it, or its threads lost LOST_BUSY CPUs (or how much is unknown). A pure rule. */
int worth_timing_again(const stage_result *res);
/* What a compute-bound stage's speedup over the one-thread baseline shows (judge.c, speedup_verdict). */
enum speedup_verdict {
    SPEEDUP_OK,           /* it reached `<stage>_speedup` and its threads worked */
    SPEEDUP_SERIAL,       /* its threads did not work (the kernel's count: one thread's worth): a failure */
    SPEEDUP_BUSY_LOST,    /* short, its threads lost LOST_BUSY CPUs or more, and given that back it reaches it: BUSY */
    SPEEDUP_SHORT_LOST,   /* short, they lost as much, and even given that back it falls short: UNJUDGED */
    SPEEDUP_BUSY_LIBRARY, /* short, little lost, and OpenBLAS itself gains less than the cores now, and the
                             code's speedup scaled by that shortfall reaches the requirement: BUSY */
    SPEEDUP_SHORT,        /* short, little lost, and the library gains: UNJUDGED (threads busy, no faster) */
};
/* The verdict from the stage's figures (res->speedup, speedup_required, cpus, stolen, waited) and
 * OpenBLAS's gain from 1 to `threads` threads measured just after (lib; -1 where not measured), in
 * the order of the enum's comments after SPEEDUP_OK: serial code is condemned before anything a
 * busy machine excuses. A pure rule: the unit tests feed it recorded figures. */
int speedup_verdict(const stage_result *res, int threads, double lib);
/* Whether speedup_verdict needs `lib` for these figures (measuring it takes a second or two). */
int speedup_needs_library(const stage_result *res, int threads);
#endif
