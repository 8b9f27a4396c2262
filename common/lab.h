/* lab.h - what a lab tells the harness: its buffers, its stages, its reference and its sizes.
 *
 * A lab is one file, grading/NN-name/lab.c, defining `const lab LAB`. It is compiled twice:
 * into the scorer (which generates inputs, computes the reference and decides the score) and,
 * with LAB_RUNNER defined, into the runner (the only process that calls student code). The stage
 * table is the one list of a lab's stages: the grader, the bench and --list all read it. */
#ifndef LAB_H
#define LAB_H

#include <stddef.h>

#include "rng.h"

#define LAB_MAX_BUFS 6
#define LAB_MAX_CASES 64

/* Problem dimensions; a lab uses the ones it needs (matvec: m x n). */
typedef struct lab_shape { int m, n, k; } lab_shape;

typedef enum { ROLE_IN, ROLE_OUT } lab_role;

/* One array the student's function reads or writes: rows x cols doubles, row-major. */
typedef struct lab_buf {
    const char *name;
    lab_role role;
    size_t rows, cols;
} lab_buf;

/* What a stage adaptor sees in the runner: the shape, the buffers in layout order, and a
 * private pointer for state built by setup (e.g. separately allocated rows). */
typedef struct lab_call {
    lab_shape s;
    double *buf[LAB_MAX_BUFS];
    void *ctx;
} lab_call;

typedef struct lab_stage {
    const char *name;     /* id used in tables, thresholds.conf and results: "unrolled" */
    const char *function; /* the student's function: "matvec_unrolled" */
    const char *what;     /* one line describing the stage */
    void (*setup)(lab_call *c);    /* optional, untimed: build stage-private inputs */
    void (*run)(lab_call *c);      /* timed: call the student's function once */
    void (*teardown)(lab_call *c); /* optional, untimed: copy back what the grader checks, free */
} lab_stage;

/* One size to grade. Timed cases are also checked, on every call. */
typedef struct lab_case {
    lab_shape s;
    int timed;
} lab_case;

typedef struct lab {
    const char *id;     /* "01-cpu-matvec": the name shared by labs/, solutions/, grading/, handouts/ */
    const char *title;  /* "Matrix-vector product on one core" */
    const char *source; /* the file the student edits, relative to the lab folder: "matvec.c" */
    int threads;        /* threads the lab runs (and the ceiling is measured) with */
    const lab_stage *stages;
    int nstages;

    int nbufs;
    int out;  /* index of the output buffer */
    int vary; /* index of an input redrawn before every timed call, so results can't be cached */
    void (*layout)(lab_shape s, lab_buf *b);

    /* Work and compulsory memory traffic of one call, for GFLOP/s, GB/s and the roofline. */
    double (*flops)(lab_shape s);
    double (*bytes)(lab_shape s);

    /* Scorer only: the exact result (in higher precision) and a per-element error bound. */
    void (*reference)(lab_shape s, double *const *buf, double *ref, double *bound);

    /* The sizes graded this run, drawn from r; the timed case is sized from the last-level cache. */
    int (*cases)(rng *r, size_t llc_bytes, lab_case *out);
    /* The sizes of `make bench`, from in-cache to several times the last-level cache. */
    int (*bench_cases)(size_t llc_bytes, lab_case *out);
} lab;

extern const lab LAB;

/* In the scorer the stage adaptors (which call student code) are left out: RUNNER_ONLY(f) is NULL. */
#ifdef LAB_RUNNER
#define RUNNER_ONLY(f) f
#else
#define RUNNER_ONLY(f) NULL
#endif

#endif
