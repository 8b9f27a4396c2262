/* build.h - turn a student's source file into an audited runner executable.
 *
 * Steps, each with its own failure message: copy the file into a scratch folder; preprocess it
 * and reject includes from outside the system and the lab's header folder and any .incbin;
 * compile with our flags; audit the object (it may define only the lab's functions, have no
 * constructors or ifuncs, and call only allowed functions; CUDA: only nvcc's own start-up code may
 * register device code, and the device code may not use the lab's forbidden instructions, read in
 * the PTX and in the SASS); localise every other symbol; link it with the runner. The scorer runs
 * these tools but never the student's code. */
#ifndef BUILD_H
#define BUILD_H

#include <stddef.h>

typedef struct build_spec {
    const char *compiler;    /* "gcc", or "nvcc" for a CUDA lab */
    const char *cuda_home;   /* CUDA labs: the toolkit root, whose headers count as system headers */
    const char *source;      /* the student's file */
    const char *lab_dir;     /* grading/NN-name: the lab's header lives here */
    const char *scratch;     /* a fresh folder for this build */
    const char *runner_base; /* the runner object (harness + lab adaptors) */
    const char *cflags;      /* from thresholds.conf */
    const char *ldlibs;      /* e.g. "-lm" */
    const char *const *functions; /* the lab's functions: the only symbols the object may define */
    int nfunctions;
    const char *allow_calls; /* extra functions the lab lets student code call (space separated) */
    const char *forbid_ptx;  /* CUDA labs: PTX instructions the kernels may not use ("mma.": tensor cores) */
    const char *sanitize;    /* SANITIZE=1: flags added to compile and link once the plain build passed the
                                audit (the instrumented object has constructors of its own) */
} build_spec;
/* A CUDA lab's forbidden SASS opcodes are read by build_runner from lab_dir/thresholds.conf, key
 * forbid_sass: fnmatch patterns on the opcode before its first '.' ("*MMA": every tensor-core
 * instruction). (Read there, not passed in the spec, so callers need no change.) */

enum build_status { BUILD_OK, BUILD_MISSING, BUILD_COMPILE, BUILD_AUDIT, BUILD_LINK, BUILD_TOOL };

/* Build `scratch`/runner. Returns a build_status; msg says what went wrong, for the student. */
int build_runner(const build_spec *b, char *msg, size_t len);

#endif
