/* submission.h - the student's file made into a runner for the scorer (submission.c): compiled
 * for the GPU graded on, built and audited (build.c, audit.c), and each stage's technique read
 * from what the compiler made (technique.c). Shared by `make grade` (grade.c) and `make bench`
 * and `make profile` (bench.c). */
#ifndef SUBMISSION_H
#define SUBMISSION_H

#include <stddef.h>

#include "bench.h"

/* Build the runner for `source` with `cflags` (the audit included): BUILD_OK, or the failure in
 * msg, which every stage reports. */
int build_submission(const options *opt, grader *g, const char *source, const char *cflags, char *msg, size_t len);
/* The technique thresholds.conf asks of a stage (its technique_<stage>, technique.h), or NULL. */
const char *technique_spec(const config *cfg, int stage);

#endif
