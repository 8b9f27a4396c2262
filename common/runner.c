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

typedef struct runner {
    const job *j;
    const lab_stage *st;
    const lab_problem *p;
    lab_buf b[LAB_MAX_BUFS];
    lab_call c;
    size_t in_bytes, back_bytes, nout, out_bytes;
    void *initial; /* an INOUT output's contents as sent, restored before every call */
} runner;

/* AddressSanitizer's, when the runner is linked with it (SANITIZE=1). */
void __asan_poison_memory_region(void const volatile *addr, size_t size) __attribute__((weak));
void __asan_unpoison_memory_region(void const volatile *addr, size_t size) __attribute__((weak));

/* A buffer with a guard page on each side; data is page-aligned. Under AddressSanitizer the guards
 * are poisoned too, so a stray access is reported where it happens. */
static void *alloc_guarded(size_t bytes)
{
    size_t g = GUARD_DOUBLES * sizeof(double);
    unsigned char *p = NULL;
    if (posix_memalign((void **)&p, 4096, bytes + 2 * g)) _exit(RUNNER_NO_MEMORY);
    memset(p, GUARD_BYTE, g);
    memset(p + g + bytes, GUARD_BYTE, g);
    if (__asan_poison_memory_region) {
        __asan_poison_memory_region(p, g);
        __asan_poison_memory_region(p + g + bytes, g);
    }
    return p + g;
}

static void send_or_die(uint32_t kind, const void *p, size_t bytes)
{
    if (msg_send(PROTO_OUT_FD, kind, p, bytes)) _exit(RUNNER_WRITE_FAILED);
}

static void recv_or_die(uint32_t kind, void *p, size_t bytes)
{
    if (msg_recv(PROTO_IN_FD, kind, p, bytes)) _exit(RUNNER_READ_FAILED);
}

/* The inputs travel as one message: the IN and INOUT buffers concatenated in layout order. */
static void recv_inputs(runner *r)
{
    unsigned char *all = xmalloc(r->in_bytes + 1), *p = all;
    recv_or_die(MSG_INPUT, all, r->in_bytes);
    for (int i = 0; i < r->p->nbufs; i++)
        if (is_sent(&r->b[i])) {
            memcpy(r->c.buf[i], p, buf_bytes(&r->b[i]));
            if (r->b[i].role == ROLE_INOUT) memcpy(r->initial, p, buf_bytes(&r->b[i]));
            p += buf_bytes(&r->b[i]);
        }
    free(all);
}

static void send_inputs_and_guards(runner *r)
{
    size_t g = GUARD_DOUBLES * sizeof(double), gb = guards_bytes(r->p);
    unsigned char *all = xmalloc(r->back_bytes > gb ? r->back_bytes : gb), *p = all;
    for (int i = 0; i < r->p->nbufs; i++) {
        if (__asan_unpoison_memory_region) { /* the student's calls are over: the guards are read now */
            __asan_unpoison_memory_region((unsigned char *)r->c.buf[i] - g, g);
            __asan_unpoison_memory_region((unsigned char *)r->c.buf[i] + buf_bytes(&r->b[i]), g);
        }
        memcpy(p, (unsigned char *)r->c.buf[i] - g, g);
        memcpy(p + g, (unsigned char *)r->c.buf[i] + buf_bytes(&r->b[i]), g);
        p += 2 * g;
    }
    send_or_die(MSG_GUARDS, all, gb);
    p = all;
    for (int i = 0; i < r->p->nbufs; i++)
        if (r->b[i].role == ROLE_IN) {
            memcpy(p, r->c.buf[i], buf_bytes(&r->b[i]));
            p += buf_bytes(&r->b[i]);
        }
    send_or_die(MSG_INPUTS, all, r->back_bytes);
    free(all);
}

static double cpu_time(void (*run)(lab_call *), lab_call *c)
{
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    run(c);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
}

/* One call: poison the output, let the stage stage it, time the student's function, fetch. */
static double one_call(runner *r, unsigned call)
{
    if (r->b[r->p->out].role == ROLE_INOUT) memcpy(r->c.buf[r->p->out], r->initial, r->out_bytes);
    else poison_fill(r->c.buf[r->p->out], r->b[r->p->out].type, r->nout, call);
    if (r->st->pre) r->st->pre(&r->c);
    double t = LAB.timer ? LAB.timer->time(r->st->run, &r->c) : cpu_time(r->st->run, &r->c);
    if (r->st->post) r->st->post(&r->c);
    return t;
}

static void run_trials(runner *r)
{
    for (unsigned t = 0; t < r->j->trials; t++) {
        recv_inputs(r);
        if (r->st->setup) r->st->setup(&r->c);
        one_call(r, t);
        if (r->st->teardown) r->st->teardown(&r->c);
        send_or_die(MSG_OUTPUT, r->c.buf[r->p->out], r->out_bytes);
        send_inputs_and_guards(r);
    }
}

/* Timed calls, each on a fresh variant of the vary input if the problem has one, the output
 * poisoned before each. The scorer gets the first and last outputs whole and the positions it
 * chose of every call, so it checks every call (the first is the warm-up, checked like the rest). */
static void run_timed(runner *r)
{
    const job *j = r->j;
    int vary = j->vary;
    if (vary >= r->p->nbufs || (vary >= 0 && r->b[vary].role != ROLE_IN)) _exit(RUNNER_BAD_JOB);
    size_t vbytes = vary >= 0 ? buf_bytes(&r->b[vary]) : 0, esz = elem_bytes(r->b[r->p->out].type);
    unsigned char *variants = xmalloc(j->max_calls * vbytes + 1), *first = xmalloc(r->out_bytes);
    unsigned char *samples = xmalloc((size_t)j->max_calls * j->nsample * esz + 1);
    uint64_t *at = xmalloc(j->nsample * sizeof *at + 1);
    double *times = xcalloc(j->max_calls + 1, sizeof(double)); /* [0]: calls made */
    recv_inputs(r);
    if (vary >= 0) recv_or_die(MSG_VARIANTS, variants, j->max_calls * vbytes);
    recv_or_die(MSG_SAMPLE_AT, at, j->nsample * sizeof *at);
    for (unsigned k = 0; k < j->nsample; k++)
        if (at[k] >= r->nout) _exit(RUNNER_BAD_JOB);
    if (r->st->setup) r->st->setup(&r->c);
    send_or_die(MSG_READY, NULL, 0);
    unsigned calls = 0;
    double timed = 0;
    while (calls < j->max_calls && (calls < j->min_calls || timed < j->min_time)) {
        if (vary >= 0) memcpy(r->c.buf[vary], variants + calls * vbytes, vbytes);
        double t = one_call(r, calls);
        times[1 + calls] = t;
        if (calls > 0) timed += t;
        const unsigned char *out = r->c.buf[r->p->out];
        if (calls == 0) memcpy(first, out, r->out_bytes);
        for (unsigned k = 0; k < j->nsample; k++)
            memcpy(samples + ((size_t)calls * j->nsample + k) * esz, out + at[k] * esz, esz);
        calls++;
    }
    unsigned char *last = r->c.buf[r->p->out];
    trace_msg *trace = NULL;
    if (LAB.traced) { /* one more call, on the last inputs, to see what ran where (not timed) */
        last = memcpy(xmalloc(r->out_bytes), last, r->out_bytes);
        trace = xcalloc(1, sizeof *trace);
        if (LAB.trace) LAB.trace->begin();
        one_call(r, calls);
        if (LAB.trace) trace->count = LAB.trace->end(trace->ev, TRACE_MAX);
    }
    if (r->st->teardown) r->st->teardown(&r->c);
    times[0] = calls;
    send_or_die(MSG_TIMES, times, (j->max_calls + 1) * sizeof(double));
    send_or_die(MSG_OUTPUT, first, r->out_bytes);
    send_or_die(MSG_OUTPUT, last, r->out_bytes);
    send_or_die(MSG_SAMPLES, samples, (size_t)calls * j->nsample * esz);
    send_inputs_and_guards(r); /* the vary input is compared with the last variant sent */
    if (trace) {
        send_or_die(MSG_TRACE, trace, sizeof *trace);
        free(last);
        free(trace);
    }
    free(variants);
    free(first);
    free(samples);
    free(at);
    free(times);
}

int main(void)
{
    /* GPU labs initialise the device (which opens files and starts threads) before the filter. */
    if (LAB.timer && LAB.timer->init && LAB.timer->init()) _exit(RUNNER_NO_GPU);
    if (sandbox_enter(LAB.threads, LAB.gpu, getenv("ASAN_OPTIONS") != NULL)) _exit(RUNNER_NO_SANDBOX);
    job j;
    recv_or_die(MSG_JOB, &j, sizeof j);
    if (j.stage >= (unsigned)LAB.nstages) _exit(RUNNER_BAD_JOB);
    runner r = {.j = &j, .st = &LAB.stages[j.stage], .p = LAB.stages[j.stage].problem, .c = {.s = j.s}};
    r.c.p = r.p;
    r.p->layout(j.s, r.b);
    for (int i = 0; i < r.p->nbufs; i++) r.c.buf[i] = alloc_guarded(buf_bytes(&r.b[i]));
    r.in_bytes = inputs_bytes(r.p, j.s);
    r.back_bytes = back_bytes(r.p, j.s);
    r.nout = buf_elems(&r.b[r.p->out]);
    r.out_bytes = buf_bytes(&r.b[r.p->out]);
    r.initial = xmalloc(r.out_bytes + 1);
    if (j.timed) run_timed(&r);
    else run_trials(&r);
    send_or_die(MSG_DONE, NULL, 0);
    return 0;
}
