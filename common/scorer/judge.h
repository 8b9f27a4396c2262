/* judge.h - one stage graded (judge.c): its correctness cases at each thread count, then its
 * timed case against this run's ceiling, retimed when short; and the pieces `make bench` and
 * `make profile` share with it. */
#ifndef JUDGE_H
#define JUDGE_H

#include "session.h"
#include "verdict.h"

/* Grade stage `stage` into res: cases, checks, speed, points. */
void grade_stage(grader *g, int stage, stage_result *res);
void measure_now_once(grader *g, double seconds);
/* Its maximum points and required fraction, from thresholds.conf. */
void stage_points(const config *cfg, int stage, stage_result *res);
/* A stage written as several chains of adds (lab_stage.chains): the multiple of one chain's rate
 * that is enough where it is below its fraction (thresholds.conf: <stage>_over_chain); 0: none. */
double over_chain(const config *cfg, int stage);
/* The sizes of a problem this run (from the seed: a replay sees them again). */
int problem_cases(const lab_run *r, const lab_problem *p, lab_case *out);
/* The vendor library's rate at shape s and the pipeline's parts at s, measured once in this run. */
double blas_ceiling(grader *g, const lab_problem *p, lab_shape s);
pipeline_times pipeline_ceiling(grader *g, const lab_problem *p, lab_shape s);
/* The runner's address-space limit for a problem's cases. */
void size_limits(grader *g, const lab_problem *p, const lab_case *cases, int n);

#endif
