/* runner.h - lab 05's runner side (runner.c), as the stage table of lab.c sees it: the timer, the
 * trace, and each stage's adaptors, which call the student's create, run and destroy (RUNNER_ONLY
 * leaves them out of the scorer). */
#pragma once
#include "lab.h"

enum { PX, PC, PY }; /* the problem's buffers: x, the coefficients, y */

extern const lab_timer streams_timer;
extern const lab_trace streams_tracer;
#define STREAMS_ADAPTORS(name) \
    void name##_setup(lab_call *c); \
    void name##_call(lab_call *c);  \
    void name##_teardown(lab_call *c);
STREAMS_ADAPTORS(pageable)
STREAMS_ADAPTORS(pinned)
STREAMS_ADAPTORS(pipelined)
STREAMS_ADAPTORS(graph)
STREAMS_ADAPTORS(matvec)
