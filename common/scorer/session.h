/* session.h - the scorer's side of grading cases: one runner process serves every case of a
 * stage (a session), restarted at the next case after a crash or a kill. Inputs and references
 * are made here, every output is checked here, and timed calls are timed here (proto.h). */
#ifndef SESSION_H
#define SESSION_H

#include "grade.h"

/* Correctness: `trials` calls, each on fresh inputs, each output, the guards and the inputs checked. */
outcome run_correctness(grader *g, int stage, int index, lab_shape shape);
/* A timed call's time (row 38): the runner's figure `claimed`, but never more than the scorer's
 * own `outside` and never less than that less `overhead` (an empty call's round trip) and `slack`,
 * whatever the runner's memory held and whoever wrote it. */
double judged_time(double outside, double claimed, double overhead, double slack);
/* Timed calls (each on an input derived from its own secret, timed by the scorer and checked
 * after it at positions chosen then), the verdict's median into res. */
outcome run_timed(grader *g, int stage, lab_shape shape, stage_result *res);
/* One call at `shape` with the runner's threads on one CPU and some of them (the main thread, or
 * every other) given it only when the rest leave it idle (SCHED_IDLE), in a runner of its own whose
 * idle OpenMP threads sleep at once: honest work sharing costs about the CPU time of one call made
 * as usual, where threads that spin beside one doing all the work burn the CPU until it ends (or
 * until limit_s). cpu: the runner's CPU seconds over that call (-1: the probe could not be made). */
typedef struct starved_run {
    double cpu, wall;
    int finished, threads;
    outcome checked; /* the values of its calls, checked at sampled positions (not ok: a wrong one) */
} starved_run;
starved_run run_starved(grader *g, int stage, lab_shape shape, int starve_main, double limit_s);
/* End the session's runner, if one runs (the next case starts another). */
void session_end(grader *g);


#endif
