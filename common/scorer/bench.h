/* bench.h - `make bench` and `make profile` (bench.c), and the command line they share with the
 * scorer's main (grade.c). */
#ifndef BENCH_H
#define BENCH_H

#include <stddef.h>
#include <stdint.h>

#include "session.h"

typedef struct options {
    const char *lab_dir, *work, *build, *runner_base, *results, *cuda_arch, *cuda_home, *nvcc, *profile, *stage;
    uint64_t seed;
    int have_seed, bench, list, calibrate, sanitize;
    double timeout, max_mib; /* max_mib: make bench's MAX_MIB (0: no cap) */
} options;

/* A CUDA tool (compute-sanitizer, ncu) as a full path: in CUDA_HOME's bin, beside the nvcc graded
 * with, or on PATH; 0 when found. */
int find_cuda_tool(const options *opt, const char *name, char *out, size_t len);

/* `make bench`: several sizes of every stage, and for a CPU lab the compiler study. */
int bench(const options *opt, grader *g, const char *source);
/* `make profile STAGE=...`: one stage's timed case under perf or Nsight Compute. */
int profile(const options *opt, grader *g, const char *source);

#endif
