/* cases.h - the scorer's copy of a case: its buffers, filled from a seed, and the exact result
 * they should give (the reference). Shared by the scorer's session.c and checks.c. */
#ifndef CASES_H
#define CASES_H

#include <stdint.h>

#include "grade.h"

/* The scorer's copy of a case's buffers: inputs packed as the runner expects them, the
 * student's output as received, the same as doubles, and the reference with its bound. */
typedef struct bufset {
    const lab_problem *p;
    lab_buf b[LAB_MAX_BUFS];
    void *buf[LAB_MAX_BUFS]; /* what was sent (IN, INOUT) points into packed */
    void *recv;              /* the output as received */
    unsigned char *packed;
    double *got, *ref, *bound;
    size_t packed_bytes, nout;
    uint64_t seed; /* what the inputs were filled from */
    int shared;    /* ... a seed every stage's case shares (run_correctness): the reference is kept */
} bufset;

/* A case's seed: the run's, the stage's, which of the stage's uses (a correctness case, a timed
 * run, its picks) and the trial. */
uint64_t case_seed(uint64_t seed, int stage, int which, int trial);
/* "m=512 n=512 k=512", or the problem's own dimension names. */
void shape_text(const lab_problem *p, lab_shape s, char *buf, size_t len);
/* The vendor library's rate at shape s, measured once per shape in this run (OpenBLAS or cuBLAS). */
void remember_blas(lab_run *r, lab_shape s, double gflops);
/* The report's name of the cuBLAS routine a GPU lab is judged against. */
void cublas_note(lab_run *r, const lab_problem *p);

void bufset_init(bufset *s, const lab_problem *p, lab_shape shape);
/* Every input from `seed` (buffer i from seed + i), or buffer i alone from `seed`. */
void bufset_fill(bufset *s, uint64_t seed);
void fill_buf(bufset *s, int i, uint64_t seed);
void bufset_free(bufset *s);

/* A correctness case whose reference costs the scorer a second or so: its inputs are shared by
 * every stage, and its reference computed once. */
int costly(const lab_problem *p, lab_shape shape);
/* The exact result for the current inputs, with its bound, into s->ref and s->bound: all of it,
 * or only the positions at[0..count). */
void reference(grader *g, bufset *s, lab_shape shape);
void reference_at(grader *g, bufset *s, lab_shape shape, const uint64_t *at, size_t count);

#endif
