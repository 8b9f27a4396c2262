/* session.h - the scorer's side of grading cases: one runner process serves every case of a
 * stage (a session), restarted at the next case after a crash or a kill. Inputs and references
 * are made here, every output is checked here, and timed calls are timed here (proto.h). */
#ifndef SESSION_H
#define SESSION_H

#include <limits.h>

#include "grade.h"
#include "sandbox.h"

/* Everything one stage's cases need. */
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
    int stage;         /* the stage it serves */
    int sessions;      /* runner processes started (for the report on grading speed) */
} grader;

/* The outcome of one case. */
typedef struct outcome {
    int ok, fatal; /* fatal: the runner died or hung; later sizes would too */
    const char *reason;
    char detail[2048];
} outcome;

/* Correctness: `trials` calls, each on fresh inputs, each output, the guards and the inputs checked. */
outcome run_correctness(grader *g, int stage, int index, lab_shape shape);
/* A timed call's time (row 38): the runner's figure `claimed`, but never more than the scorer's
 * own `outside` and never less than that less `overhead` (an empty call's round trip) and `slack`,
 * whatever the runner's memory held and whoever wrote it. */
double judged_time(double outside, double claimed, double overhead, double slack);
/* Timed calls (each on an input derived from its own secret, timed by the scorer and checked
 * after it at positions chosen then), the verdict's median into res. */
outcome run_timed(grader *g, int stage, lab_shape shape, stage_result *res);
/* End the session's runner, if one runs (the next case starts another). */
void session_end(grader *g);

int fail(outcome *o, const char *reason, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void shape_text(const lab_problem *p, lab_shape s, char *buf, size_t len);
uint64_t case_seed(uint64_t seed, int stage, int which, int trial);
/* The vendor library's rate at shape s, measured once per shape in this run (OpenBLAS or cuBLAS). */
void remember_blas(lab_run *r, lab_shape s, double gflops);
void cublas_note(lab_run *r, const lab_problem *p);

#endif
