/* grade.h - results of grading one lab, shared by the scorer (grade.c) and its reports (report.c). */
#ifndef GRADE_H
#define GRADE_H

#include <limits.h>
#include <stdio.h>

#include "calib.h"
#include "config.h"
#include "lab.h"
#include "sandbox.h"

typedef struct stage_result {
    int skipped;               /* not run here (no CUDA device or toolkit): neither passed nor failed */
    int correct;               /* every correctness case and every timed call right */
    int cases_ok, cases_total; /* correctness cases */
    char reason[24];           /* first failure, as a stable token: "wrong", "timeout", "too-slow" ... */
    char detail[3072];         /* for people: the size, the first bad index, got vs expected, likely cause */
    char technique[1200];      /* thresholds.conf names this stage's technique (technique_<stage>) and its code
                                  lacks it: what was looked for, where (technique.c); empty otherwise */
    int technique_read;        /* ... and the check could be made (the stage's code launches a kernel) */
    char printed[900];         /* the first lines the student's code printed in this stage (shown only) */
    int printed_lines;         /* ... and how many it printed in all */
    int timed;                 /* a timed run finished and was checked */
    lab_shape timed_shape;
    double seconds, gflops, gbs, ceiling_gflops, fraction, required;
    int chain_bound;     /* the ceiling was the one-chain add rate (lab_stage.chain), lower than the roof */
    int fp32_bound;      /* the ceiling was the device's FP32 peak (lab_problem.fp32_capped), below the memory roof */
    double best_seconds; /* the fastest timed call (seconds is the median) */
    int calls;           /* timed calls made in the last timed run (the warm-up included) */
    int proven;          /* ... of which fetched whole with a matching digest: the ones timed */
    int disagreed;       /* ... of which the runner's own time disagreed with the scorer's */
    int far_off;         /* ... and of those, the scorer's time was over DELAYED_BY times the runner's (session.c) */
    double empty_seconds; /* an empty call's round trip, GO to DONE, before the student's code ran */
    int fast_enough;
    double speedup, speedup_required; /* threaded labs: time at 1 thread / time at the lab's threads, or
                                         (bandwidth-bound) the rate over the one-thread roof */
    int speedup_unjudged;             /* the machine's bandwidth does not scale enough to judge it */
    int parallel_seen;                /* a speedup not judged, and the code kept the lab's threads busy (cpus) */
    double cpus;                      /* threaded labs: CPUs the runner kept busy over its last timed run
                                         at the lab's threads (the kernel's accounting / the calls' time) */
    double shared_cpu;                /* threaded labs: the probe of shared work's CPU time over a timed
                                         call's, the higher of its two calls (judge_shared; 0 not probed) */
    double stolen, waited;            /* CPU labs: CPUs' worth of time the VM's host took (steal), and that
                                         the runner's threads waited ready for a CPU another process held (the
                                         run queue), over the calls of the least disturbed timed run at the
                                         lab's threads (-1 unknown) */
    int busy;                         /* CPU labs: the machine was far below its calibrated bandwidth just
                                         before this stage was timed, three tries: speed not judged */
    double points_correct, points_speed, max_correct, max_speed;
    pipeline_times pipe;  /* CEIL_PIPELINE: the parts of the ideal time, measured at the timed shape */
    trace_event *trace;   /* traced labs: what one call ran on which stream */
    int ntrace;
} stage_result;

/* A CPU lab's bandwidth below this fraction of its calibration as a stage starts: the
 * machine is busy, and the stage's speed is not judged (judge.c). */
#define BUSY_FRACTION 0.6
/* ... or its threads lost at least this many CPUs' worth of time while the stage was timed, in every
 * timed run, to the host of this virtual machine (steal) or to other processes (the run queue), and
 * with it given back would have passed: its speed and speedup are not judged (judge.c). */
#define LOST_BUSY 0.1
/* A stage short of its threshold is timed again only where its fraction is at least this share of
 * the threshold, or its threads lost LOST_BUSY CPUs: on a machine that took nothing from it, no
 * quieter moment makes a median 1.4x faster (the studies' spread of one variant's 20 medians: CV 20%
 * at most, docs/BENCHMARKS.md), and a far-short stage's retimes only cost time (judge.c). */
#define RETIME_WITHIN 0.7
/* A CPU stage that passes by less than this multiple of its threshold against the vendor library is
 * judged against the library measured again, the faster of the two kept (judge.c): a neighbour busy
 * while it was measured reads it low and flatters the code (lab 02's `register` slowed to 0.88x of
 * its threshold passed 1 of 20 gradings so, on a ceiling read at 52.5 GFLOP/s against 56-59). */
#define CONFIRM_WITHIN 1.25
/* ... and a threaded stage's speedup under this multiple of its requirement is judged against the
 * one-thread baseline measured again, the faster kept (judge.c, judge_speedup): a baseline read low
 * flatters the code as a library read low does. Wider than CONFIRM_WITHIN: the baseline is the
 * scorer's own i-k-j, timed in seconds, and a second reading of it costs 2 s at most. */
#define CONFIRM_SPEEDUP_WITHIN 1.5

typedef struct lab_run {
    const char *work;   /* the tree graded: "labs" */
    uint64_t seed;
    machine mach;
    int threads;           /* what the lab is timed and its ceiling measured with (LAB.threads, or all cores) */
    bandwidth cached, now; /* calibration cache, and measured in this run */
    bandwidth now1;        /* threaded labs: measured in this run with one thread (the serial roof) */
    int now_measured;      /* CPU labs: `now` is measured once a stage is about to be timed (never for code
                              that fails every correctness case: a third of a second saved) */
    double stream_lo, stream_hi; /* CPU labs: the lowest and highest `now` of this run (measured again
                                    before every stage's timing) */
    const char *ceiling;   /* what stream_gbs measures: "triad" or "device copy" */
    config gpu;            /* GPU labs: what the probe said (name, arch, l2_bytes, copy_gbs ...) */
    char device[128];      /* GPU labs: the device graded on */
    int gpu_busy;          /* GPU labs: other processes on the device (-1: unknown) */
    double sgemm_gflops, hgemm_gflops; /* GPU labs: cuBLAS rates from the calibration */
    double fp32_gflops;                /* GPU labs: the FP32 peak (FFMA) measured in this run, 0 unknown */
    char skip_why[256];    /* set when the whole lab is skipped here */
    char blas_note[160];   /* BLAS-ceiling labs: which OpenBLAS kernel was measured */
    /* The roofline chart's compute roof (GFLOP/s) and where it comes from: the fastest vendor-library
     * ceiling of this run, or for a lab with none, a rate measured for the chart (see compute_roof). */
    double compute_gflops;
    char compute_source[256];
    /* For re-running a verdict: the compiler and flags used, and hashes of the grader program
     * and of the lab's thresholds.conf. */
    char compiler[160], cflags[512];
    unsigned long long grader_hash, config_hash;
    struct { lab_shape s; double gflops; int again; } blas[8]; /* OpenBLAS dgemm at each timed shape, this run
                                                             (again: measured a second time, the faster kept) */
    int nblas;
    int sanitize;          /* SANITIZE=1: correctness only, under AddressSanitizer and UBSan (CPU labs) or
                              compute-sanitizer's four tools (GPU labs) */
    struct { int m, n, again; pipeline_times t; } pipe[8]; /* CEIL_PIPELINE labs: the probe at each timed size (again: measured twice) */
    int npipe;
    const char *build_dir;
    config cfg;
    char build_error[4096];
    int build_status;
    stage_result stages[16];
} lab_run;

/* Everything one stage's cases need (session.c runs them). */
typedef struct grader {
    lab_run *run;
    char runner[PATH_MAX], scratch[1024], output[1100];
    sandbox_limits lim;
    double min_time;
    unsigned min_calls, max_calls, trials;
    int same_inputs; /* bench: no fresh variant per call, so one reference serves every call */
    int correct_threads[8], ncorrect_threads; /* thread counts every correctness case runs at */
    int case_threads;  /* OpenMP threads of the next case (0: the session's) */
    unsigned timed_runs; /* timed runs so far: each gets inputs and secrets of its own */
    runner_proc proc;  /* the session's runner ... */
    int alive;         /* ... while it runs */
    size_t window_bytes; /* the output window the next runner started gets (0: none) */
    int stage;         /* the stage it serves */
    int sessions;      /* runner processes started (for the report on grading speed) */
    char sanitizer[PATH_MAX]; /* SANITIZE=1 on a GPU lab: compute-sanitizer's path */
    const char *sanitizer_tool; /* ... and the tool of the runs now (memcheck, racecheck, ...) */
    int sanitize_per_case; /* ... each case in a runner of its own (to name the size of a finding) */
} grader;

/* The outcome of one case. */
typedef struct outcome {
    int ok, fatal; /* fatal: the runner died or hung; later sizes would too */
    const char *reason;
    char detail[2048];
} outcome;

#endif
