/* judge.h - one stage graded (judge.c): its correctness cases at each thread count, then its
 * timed case against this run's ceiling, retimed when short; and the pieces `make bench` and
 * `make profile` share with it. */
#ifndef JUDGE_H
#define JUDGE_H

#include "session.h"

/* Grade stage `stage` into res: cases, checks, speed, points. */
void grade_stage(grader *g, int stage, stage_result *res);
void measure_now_once(grader *g, double seconds);
/* Its maximum points and required fraction, from thresholds.conf. */
void stage_points(const config *cfg, int stage, stage_result *res);
/* A stage written as several chains of adds (lab_stage.chains): the multiple of one chain's rate
 * that is enough where it is below its fraction (thresholds.conf: <stage>_over_chain); 0: none. */
double over_chain(const config *cfg, int stage);
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
/* The sizes of a problem this run (from the seed: a replay sees them again). */
int problem_cases(const lab_run *r, const lab_problem *p, lab_case *out);
/* The vendor library's rate at shape s and the pipeline's parts at s, measured once in this run. */
double blas_ceiling(grader *g, const lab_problem *p, lab_shape s);
pipeline_times pipeline_ceiling(grader *g, const lab_problem *p, lab_shape s);
/* The runner's address-space limit for a problem's cases. */
void size_limits(grader *g, const lab_problem *p, const lab_case *cases, int n);

#endif
