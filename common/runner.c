/* runner.c - the only process that calls student code.
 *
 * The scorer execs this program (linked with the audited student object) once per case, with
 * resource limits already set. It reads a job and inputs from fd 3, calls the stage, and writes
 * outputs and timings to fd 4. It checks nothing itself: every verdict is the scorer's. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lab.h"
#include "proto.h"
#include "seccomp.h"
#include "util.h"

/* A buffer with a guard page on each side; data is page-aligned. */
static double *alloc_guarded(size_t bytes)
{
    size_t g = GUARD_DOUBLES * sizeof(double);
    unsigned char *p = NULL;
    if (posix_memalign((void **)&p, 4096, bytes + 2 * g)) _exit(3);
    memset(p, GUARD_BYTE, g);
    memset(p + g + bytes, GUARD_BYTE, g);
    return (double *)(p + g);
}

static void send_or_die(uint32_t kind, const void *p, size_t bytes)
{
    if (msg_send(PROTO_OUT_FD, kind, p, bytes)) _exit(4);
}

static void recv_or_die(uint32_t kind, void *p, size_t bytes)
{
    if (msg_recv(PROTO_IN_FD, kind, p, bytes)) _exit(5);
}

/* The inputs travel as one message: the ROLE_IN buffers concatenated in layout order. */
static void recv_inputs(const lab_buf *b, double **buf, size_t total)
{
    unsigned char *all = xmalloc(total), *p = all;
    recv_or_die(MSG_INPUT, all, total);
    for (int i = 0; i < LAB.nbufs; i++)
        if (b[i].role == ROLE_IN) {
            memcpy(buf[i], p, buf_bytes(&b[i]));
            p += buf_bytes(&b[i]);
        }
    free(all);
}

static void send_inputs_and_guards(const lab_buf *b, double **buf, size_t total)
{
    size_t g = GUARD_DOUBLES * sizeof(double);
    unsigned char *all = xmalloc(total > guards_bytes() ? total : guards_bytes()), *p = all;
    for (int i = 0; i < LAB.nbufs; i++) {
        memcpy(p, (unsigned char *)buf[i] - g, g);
        memcpy(p + g, (unsigned char *)buf[i] + buf_bytes(&b[i]), g);
        p += 2 * g;
    }
    send_or_die(MSG_GUARDS, all, guards_bytes());
    p = all;
    for (int i = 0; i < LAB.nbufs; i++)
        if (b[i].role == ROLE_IN) {
            memcpy(p, buf[i], buf_bytes(&b[i]));
            p += buf_bytes(&b[i]);
        }
    send_or_die(MSG_INPUTS, all, total);
    free(all);
}

static void poison(double *out, size_t n, unsigned call)
{
    double v = poison_value(call);
    for (size_t i = 0; i < n; i++) out[i] = v;
}

static void run_trials(const job *j, const lab_stage *st, const lab_buf *b, lab_call *c)
{
    size_t in_bytes = inputs_bytes(j->s), nout = b[LAB.out].rows * b[LAB.out].cols;
    for (unsigned t = 0; t < j->trials; t++) {
        recv_inputs(b, c->buf, in_bytes);
        poison(c->buf[LAB.out], nout, t);
        if (st->setup) st->setup(c);
        st->run(c);
        if (st->teardown) st->teardown(c);
        send_or_die(MSG_OUTPUT, c->buf[LAB.out], nout * sizeof(double));
        send_inputs_and_guards(b, c->buf, in_bytes);
    }
}

/* Timed calls: each on a fresh variant of LAB.vary, output poisoned before and kept after, so
 * the scorer checks every call (the first is the warm-up and is checked like the rest). */
static void run_timed(const job *j, const lab_stage *st, const lab_buf *b, lab_call *c)
{
    size_t in_bytes = inputs_bytes(j->s), nout = b[LAB.out].rows * b[LAB.out].cols;
    size_t nvary = b[LAB.vary].rows * b[LAB.vary].cols;
    double *variants = xmalloc(j->max_calls * nvary * sizeof(double));
    double *outs = xmalloc(j->max_calls * nout * sizeof(double));
    double *times = xcalloc(j->max_calls + 1, sizeof(double)); /* [0]: calls made */
    recv_inputs(b, c->buf, in_bytes);
    recv_or_die(MSG_VARIANTS, variants, j->max_calls * nvary * sizeof(double));
    if (st->setup) st->setup(c);
    send_or_die(MSG_READY, NULL, 0);
    unsigned calls = 0;
    double timed = 0;
    while (calls < j->max_calls && (calls < j->min_calls || timed < j->min_time)) {
        memcpy(c->buf[LAB.vary], variants + calls * nvary, nvary * sizeof(double));
        poison(c->buf[LAB.out], nout, calls);
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        st->run(c);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        times[1 + calls] = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
        if (calls > 0) timed += times[1 + calls];
        memcpy(outs + calls * nout, c->buf[LAB.out], nout * sizeof(double));
        calls++;
    }
    if (st->teardown) st->teardown(c);
    times[0] = calls;
    send_or_die(MSG_TIMES, times, (j->max_calls + 1) * sizeof(double));
    for (unsigned i = 0; i < calls; i++) send_or_die(MSG_OUTPUT, outs + i * nout, nout * sizeof(double));
    /* The vary buffer is compared with the last variant sent. */
    send_inputs_and_guards(b, c->buf, in_bytes);
    free(variants);
    free(outs);
    free(times);
}

int main(void)
{
    if (sandbox_enter(LAB.threads)) _exit(6);
    job j;
    recv_or_die(MSG_JOB, &j, sizeof j);
    if (j.stage >= (unsigned)LAB.nstages) _exit(7);
    lab_buf b[LAB_MAX_BUFS];
    lab_call c = {.s = j.s};
    LAB.layout(j.s, b);
    for (int i = 0; i < LAB.nbufs; i++) c.buf[i] = alloc_guarded(buf_bytes(&b[i]));
    const lab_stage *st = &LAB.stages[j.stage];
    if (j.timed) run_timed(&j, st, b, &c);
    else run_trials(&j, st, b, &c);
    send_or_die(MSG_DONE, NULL, 0);
    return 0;
}
