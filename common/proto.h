/* proto.h - the private channel between the scorer and the runner.
 *
 * The scorer writes to the runner's fd 3 and reads the runner's fd 4; the student's stdout and
 * stderr go to a capped file that nobody parses. Every message is a header and a payload. One
 * runner process grades one case. Correctness: JOB, then per trial INPUT, answered by OUTPUT,
 * GUARDS and INPUTS. Timed: JOB, INPUT, VARIANTS (if the problem varies an input), SAMPLE_AT
 * (output positions); answered by READY, TIMES, OUTPUT (first call), OUTPUT (last call), SAMPLES
 * (those positions of every call's output), GUARDS, INPUTS, and in a traced lab TRACE (what the
 * student's code put on which stream in one more call). Then DONE. A case without DONE failed,
 * whatever the runner's exit status. */
#ifndef PROTO_H
#define PROTO_H

#include <stddef.h>
#include <stdint.h>

#include "lab.h"

#define PROTO_MAGIC 0x4c425731u /* "1WBL" */
#define PROTO_IN_FD 3
#define PROTO_OUT_FD 4
/* Guard zone on each side of every buffer, in doubles (one page). */
#define GUARD_DOUBLES 512
#define GUARD_BYTE 0xa5

/* How a runner that stops on its own says why (the scorer explains these to the student). A
 * CUDA call that fails exits with CUDA_FAILED_STATUS (cuda_check.h), which is RUNNER_CUDA_ERROR. */
enum runner_exit {
    RUNNER_NO_MEMORY = 3, RUNNER_WRITE_FAILED, RUNNER_READ_FAILED, RUNNER_NO_SANDBOX, RUNNER_BAD_JOB,
    RUNNER_NO_GPU, RUNNER_CUDA_ERROR, RUNNER_LEAK,
};

enum msg_kind {
    MSG_JOB = 1, MSG_INPUT, MSG_VARIANTS, MSG_SAMPLE_AT,                            /* scorer -> runner */
    MSG_READY, MSG_OUTPUT, MSG_TIMES, MSG_SAMPLES, MSG_GUARDS, MSG_INPUTS, MSG_DONE, /* runner -> scorer */
    MSG_TRACE,
};

typedef struct msg_head {
    uint32_t magic, kind;
    uint64_t bytes;
} msg_head;

typedef struct job {
    uint32_t stage;
    lab_shape s;
    uint32_t timed;     /* 0: `trials` calls, each on fresh inputs; 1: timed calls on variants */
    uint32_t trials;    /* correctness trials */
    uint32_t min_calls; /* timed: at least this many calls (the first is the warm-up) ... */
    uint32_t max_calls; /* ... at most this many (one variant of the vary input each) */
    uint32_t nsample;   /* output positions reported for every timed call */
    int32_t vary;       /* the input redrawn before every timed call (the problem's, or -1: none) */
    double min_time;    /* ... and stop once this many seconds have been timed */
} job;

/* The TRACE message: how many of the events are filled in. */
typedef struct trace_msg {
    int32_t count, pad;
    trace_event ev[TRACE_MAX];
} trace_msg;

/* Send a message; 0 on success. */
int msg_send(int fd, uint32_t kind, const void *payload, size_t bytes);
/* Receive a message of the expected kind and size into payload; 0 on success, -1 otherwise. */
int msg_recv(int fd, uint32_t kind, void *payload, size_t bytes);

/* Sizes in bytes: an element, a buffer, all inputs of a problem, and the guards of all buffers. */
size_t elem_bytes(lab_type t);
size_t buf_elems(const lab_buf *b);
size_t buf_bytes(const lab_buf *b);
size_t inputs_bytes(const lab_problem *p, lab_shape s); /* what the scorer sends: IN and INOUT */
size_t back_bytes(const lab_problem *p, lab_shape s);   /* what comes back to be compared: IN */
/* Does the scorer send this buffer's contents? */
int is_sent(const lab_buf *b);
size_t guards_bytes(const lab_problem *p);

/* The value written over an output before call number `call`: NaN and a large finite garbage
 * value alternate, so code that reads its output before writing it fails either way. */
double poison_value(unsigned call);
/* Fill n elements of type t with poison_value(call). */
void poison_fill(void *p, lab_type t, size_t n, unsigned call);
/* Element i of a typed array, as a double; and set it, rounded to the type. */
double elem_get(const void *p, lab_type t, size_t i);
void elem_set(void *p, lab_type t, size_t i, double v);

#endif
