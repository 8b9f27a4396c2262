/* checks.h - the scorer's checks of what a runner sent back (the guards, the inputs, the
 * output against the reference) and its account of a runner that ended early. */
#ifndef CHECKS_H
#define CHECKS_H

#include "cases.h"
#include "sandbox.h"

/* A failed case: o->ok cleared, o->reason the verdict's word ("wrong", "crash" ...), the detail
 * from fmt; returns -1, for `return fail(...)`. */
int fail(outcome *o, const char *reason, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Each returns 0 when the check passes; otherwise -1, with the verdict in *o (fail()). */
int check_guards(const bufset *s, lab_shape shape, const unsigned char *g, outcome *o);
/* A seeded case's inputs: the runner's keyed digest of each input against the scorer's copy. */
int check_input_digests(const bufset *s, lab_shape shape, const uint64_t *dig, uint64_t key, outcome *o);
/* The runner's inputs as it sent them back, compared with what was sent as they came
 * (runner_recv_same); 0 and *o failed ("input-modified", naming the buffer) where one changed. */
int recv_inputs_back(runner_proc *p, const bufset *s, lab_shape shape, int *io, outcome *o);
/* Elements at[0..count) of out (all of it, at NULL) against the reference already computed. */
int check_values(bufset *s, lab_shape shape, const void *out, const uint64_t *at, size_t count, double poison,
                 const char *when, outcome *o);
/* The whole output: the reference computed, then every element checked. */
int check_output(grader *g, bufset *s, lab_shape shape, const void *out, double poison, const char *when, outcome *o);
/* How the runner ended, when it did not send everything: the verdict, fatal for the session. */
void runner_failed(const grader *g, const runner_end *e, const lab_problem *p, lab_shape shape, outcome *o);
/* SANITIZE=1 on a GPU lab, the runner ended: 1, with the verdict "sanitizer" in *o (the report at
 * the student's line, `where`: the size, or which cases; a wrong result of the case noted), if
 * compute-sanitizer found something. */
int cuda_sanitizer_finding(const grader *g, const char *where, outcome *o);
/* compute-sanitizer's output (its lines begin "========= ") in words, into out: the tool, then its
 * first finding as printed (the kind; "at <kernel>+0x.. in <file>:<line>", the compiled copy's path
 * replaced by `source`; the thread and block; the address; not the host's backtrace) and its
 * summary. Returns 1 when there is a finding, 0 for its banner and a summary of 0 alone. */
int cuda_sanitizer_report(const char *output, const char *tool, const char *source, char *out, size_t len);

#endif
