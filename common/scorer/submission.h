/* submission.h - the student's file made into a runner for the scorer (submission.c): compiled
 * for the GPU graded on, built and audited (build.c, audit.c), and each stage's technique read
 * from what the compiler made (technique.c). Shared by `make grade` (grade.c) and `make bench`
 * and `make profile` (bench.c). */
#ifndef SUBMISSION_H
#define SUBMISSION_H

#include <stddef.h>

#include "bench.h"

/* A lab built for one GPU architecture alone (`gpu_arch` in thresholds.conf, "90a") on a device
 * of `arch` (the probe's "90"): 0 where it runs; 1 and the skip's reason in `why` where the
 * device is of another compute capability. Pure, for the unit tests. */
int gpu_arch_refused(const char *only, const char *arch, const char *device, char *why, size_t len);
/* What such a lab needs, in words: "a GPU of compute capability 9.0 (built for sm_90a: Hopper, ...)". */
void gpu_arch_need(const char *only, char *out, size_t len);

/* Build the runner for `source` with `cflags` (the audit included): BUILD_OK, or the failure in
 * msg, which every stage reports. */
int build_submission(const options *opt, grader *g, const char *source, const char *cflags, char *msg, size_t len);
/* The technique thresholds.conf asks of a stage (its technique_<stage>, technique.h), or NULL. */
const char *technique_spec(const config *cfg, int stage);

#endif
