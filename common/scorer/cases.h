/* cases.h - the scorer's copy of a case: its buffers, filled from a seed, and the exact result
 * they should give (the reference). Shared by the scorer's session.c and checks.c. */
#ifndef CASES_H
#define CASES_H

#include <stdint.h>

#include "session.h"

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
