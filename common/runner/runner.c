/* runner.c - the only process that calls student code.
 *
 * The scorer execs this program (linked with the audited student object) once per session (the
 * cases of one stage), with resource limits already set. It reads each case's job and inputs
 * from fd 3, calls the stage, and writes outputs to fd 4 (proto.h). It checks nothing itself,
 * and nothing it says is believed unchecked: every verdict and every time is the scorer's. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
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
    unsigned char *window; /* timed cases: the scorer's output window (map_window), or NULL */
} runner;

/* AddressSanitizer's, when the runner is linked with it (SANITIZE=1). */
void __asan_poison_memory_region(void const volatile *addr, size_t size) __attribute__((weak));
void __asan_unpoison_memory_region(void const volatile *addr, size_t size) __attribute__((weak));

/* A buffer with a guard page on each side; data is page-aligned. Under AddressSanitizer the guards
 * are poisoned too, so a stray access is reported where it happens. */
static void *alloc_guarded(size_t bytes, unsigned char guard)
{
    size_t g = GUARD_DOUBLES * sizeof(double);
    unsigned char *p = NULL;
    if (posix_memalign((void **)&p, 4096, bytes + 2 * g)) _exit(RUNNER_NO_MEMORY);
    memset(p, guard, g);
    memset(p + g + bytes, guard, g);
    if (__asan_poison_memory_region) {
        __asan_poison_memory_region(p, g);
        __asan_poison_memory_region(p + g + bytes, g);
    }
    return p + g;
}

static void free_guarded(void *data)
{
    size_t g = GUARD_DOUBLES * sizeof(double);
    unsigned char *p = (unsigned char *)data - g;
    if (__asan_unpoison_memory_region) __asan_unpoison_memory_region(p, g); /* the whole block, for reuse */
    free(p);
}

static void send_or_die(uint32_t kind, const void *p, size_t bytes)
{
    if (msg_send(PROTO_OUT_FD, kind, p, bytes)) _exit(RUNNER_WRITE_FAILED);
}

static void recv_or_die(uint32_t kind, void *p, size_t bytes)
{
    if (msg_recv(PROTO_IN_FD, kind, p, bytes)) _exit(RUNNER_READ_FAILED);
}

/* The inputs travel as one message: the IN and INOUT buffers concatenated in layout order, each
 * read straight into its buffer (no copy of a gigabyte staged on the way). */
static void recv_inputs(runner *r)
{
    if (msg_recv_head(PROTO_IN_FD, MSG_INPUT, r->in_bytes)) _exit(RUNNER_READ_FAILED);
    for (int i = 0; i < r->p->nbufs; i++)
        if (is_sent(&r->b[i])) {
            if (read_all(PROTO_IN_FD, r->c.buf[i], buf_bytes(&r->b[i]))) _exit(RUNNER_READ_FAILED);
            if (r->b[i].role == ROLE_INOUT) memcpy(r->initial, r->c.buf[i], buf_bytes(&r->b[i]));
        }
}

/* The guard zones of every buffer, as the call left them. */
static void send_guards(runner *r)
{
    size_t g = GUARD_DOUBLES * sizeof(double), gb = guards_bytes(r->p);
    unsigned char *all = xmalloc(gb), *p = all;
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
    free(all);
}

/* The guards, then the inputs as they are now (IN buffers, in layout order, each written
 * straight from its buffer). */
static void send_inputs_and_guards(runner *r)
{
    send_guards(r);
    if (msg_send_head(PROTO_OUT_FD, MSG_INPUTS, r->back_bytes)) _exit(RUNNER_WRITE_FAILED);
    for (int i = 0; i < r->p->nbufs; i++)
        if (r->b[i].role == ROLE_IN && write_all(PROTO_OUT_FD, r->c.buf[i], buf_bytes(&r->b[i])))
            _exit(RUNNER_WRITE_FAILED);
}

static double cpu_time(void (*run)(lab_call *), lab_call *c)
{
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    run(c);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
}

/* Poison the output (or restore its initial contents) and let the stage stage it: untimed. A
 * stage on a device does both there (its pre), from c.poison. */
static void stage_call(runner *r, unsigned call)
{
    r->c.poison = poison_value(call);
    if (!r->st->on_device && r->b[r->p->out].role == ROLE_INOUT) memcpy(r->c.buf[r->p->out], r->initial, r->out_bytes);
    else if (!r->st->on_device) poison_fill(r->c.buf[r->p->out], r->b[r->p->out].type, r->nout, call);
    if (r->st->pre) r->st->pre(&r->c);
}

/* A seeded case's inputs, by digest: INPUTS carries one per buffer (0 for any not an input). */
static void send_input_digests(runner *r, uint64_t *dig)
{
    send_or_die(MSG_INPUTS, dig, (size_t)r->p->nbufs * sizeof *dig);
}

/* One call of `run` (the stage's, or an empty one), timed as the lab times its calls. */
static double time_call(runner *r, void (*run)(lab_call *))
{
    return LAB.timer ? LAB.timer->time(run, &r->c) : cpu_time(run, &r->c);
}

/* An empty call: everything a timed call does but the student's code (proto.h). */
static void no_call(lab_call *c) { (void)c; }

/* ---------------------------------------------------------------- seeds (row 43) */

/* Every seed reaches the runner here: read into this cell straight from the channel, used where it
 * lies (a GPU lab's cell is mapped host memory its kernels read, so the seed is never a kernel
 * argument the driver would copy), then wiped with the stack the calls that used it left below us.
 * The student's code then finds no seed in the runner: it can only read its inputs. */
static uint64_t static_cell[SECRET_CELL_BYTES / sizeof(uint64_t)];
static uint64_t *secret_cell(void) { return LAB.timer && LAB.timer->secret ? LAB.timer->secret() : static_cell; }

static void __attribute__((noinline)) scrub_stack(void)
{
    unsigned char below[1 << 17];
    explicit_bzero(below, sizeof below);
    __asm__ volatile("" : : "r"(below) : "memory");
}

/* The scratch registers, where a seed a call below left may linger (the callee-saved ones hold
 * only serve_timed's own values, which never include a seed: it is read only below, in
 * vary_from_cell or on the device). */
static void scrub_registers(void)
{
#if defined(__x86_64__)
    __asm__ volatile("xor %%eax, %%eax\n\txor %%ecx, %%ecx\n\txor %%edx, %%edx\n\txor %%esi, %%esi\n\t"
                     "xor %%edi, %%edi\n\txor %%r8d, %%r8d\n\txor %%r9d, %%r9d\n\txor %%r10d, %%r10d\n\t"
                     "xor %%r11d, %%r11d\n\tpxor %%xmm0, %%xmm0\n\tpxor %%xmm1, %%xmm1\n\tpxor %%xmm2, %%xmm2\n\t"
                     "pxor %%xmm3, %%xmm3\n\tpxor %%xmm4, %%xmm4\n\tpxor %%xmm5, %%xmm5\n\tpxor %%xmm6, %%xmm6\n\t"
                     "pxor %%xmm7, %%xmm7\n\tpxor %%xmm8, %%xmm8\n\tpxor %%xmm9, %%xmm9\n\tpxor %%xmm10, %%xmm10\n\t"
                     "pxor %%xmm11, %%xmm11\n\tpxor %%xmm12, %%xmm12\n\tpxor %%xmm13, %%xmm13\n\t"
                     "pxor %%xmm14, %%xmm14\n\tpxor %%xmm15, %%xmm15"
                     :
                     :
                     : "rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11", "xmm0", "xmm1", "xmm2", "xmm3",
                       "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14",
                       "xmm15", "memory");
#endif
}

static void __attribute__((noinline)) forget_seed(void)
{
    explicit_bzero(secret_cell(), SECRET_CELL_BYTES);
    scrub_stack();
    scrub_registers();
}

/* A host stage's varying input, made from the seed in the cell. The seed is read here, below
 * serve_timed, never into a variable of its own: a callee-saved register of serve_timed's holding it
 * would be pushed onto the stack by the calls that lead to the student's code (a CPU plant found
 * it there so). */
static void __attribute__((noinline)) vary_from_cell(runner *r, int vary, const uint64_t *cell)
{
    vary_fill(r->c.buf[vary], r->b[vary].type, buf_elems(&r->b[vary]), *cell, r->p->lo, r->p->hi, r->p->quantum);
}

static void run_trials(runner *r)
{
    for (unsigned t = 0; t < r->j->trials; t++) {
        recv_inputs(r);
        if (r->st->setup) r->st->setup(&r->c);
        stage_call(r, t);
        time_call(r, r->st->run);
        if (r->st->post) r->st->post(&r->c);
        if (r->st->teardown) r->st->teardown(&r->c);
        send_or_die(MSG_OUTPUT, r->c.buf[r->p->out], r->out_bytes);
        send_inputs_and_guards(r);
    }
}

/* The scorer's output window, where it gave one of exactly this output's size (PROTO_WINDOW_FD),
 * mapped; else NULL, and whole outputs go through the channel. */
static unsigned char *map_window(size_t bytes)
{
    struct stat st;
    if (fstat(PROTO_WINDOW_FD, &st) || !S_ISREG(st.st_mode) || (size_t)st.st_size != bytes || bytes == 0) return NULL;
    void *w = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, PROTO_WINDOW_FD, 0);
    return w == MAP_FAILED ? NULL : w;
}

/* FETCH: the whole output (downloaded by post) or the values at the positions sent with it. */
static void answer_fetch(runner *r, unsigned char *vals, uint64_t *at)
{
    fetch_msg f;
    msg_head h;
    if (read_all(PROTO_IN_FD, &h, sizeof h) || h.magic != PROTO_MAGIC || h.kind != MSG_FETCH || h.bytes < sizeof f ||
        read_all(PROTO_IN_FD, &f, sizeof f) || f.count > FETCH_MAX || h.bytes != sizeof f + f.count * sizeof *at)
        _exit(RUNNER_READ_FAILED);
    if (f.count && read_all(PROTO_IN_FD, at, f.count * sizeof *at)) _exit(RUNNER_READ_FAILED);
    if (f.whole) {
        /* A device stage's post downloads its output into c.buf[out], whatever that holds: pointed
         * at the window, it downloads there, and the output is moved once. */
        void **out = &r->c.buf[r->p->out], *host = *out;
        int direct = r->window && r->st->on_device && r->st->post;
        if (direct) *out = r->window;
        if (r->st->post) r->st->post(&r->c);
        *out = host;
        if (r->window) {
            if (!direct) memcpy(r->window, host, r->out_bytes);
            send_or_die(MSG_OUTPUT_WINDOW, NULL, 0);
        } else send_or_die(MSG_OUTPUT, host, r->out_bytes);
        return;
    }
    size_t esz = elem_bytes(r->b[r->p->out].type);
    for (unsigned k = 0; k < f.count; k++)
        if (at[k] >= r->nout) _exit(RUNNER_BAD_JOB);
    if (r->st->gather) r->st->gather(&r->c, at, f.count, vals);
    else
        for (unsigned k = 0; k < f.count; k++) memcpy(vals + k * esz, (unsigned char *)r->c.buf[r->p->out] + at[k] * esz, esz);
    send_or_die(MSG_SAMPLES, vals, f.count * esz);
}

/* Timed calls, as many as the scorer starts. Each: SEED (the call's secret, from which its varying
 * input is made, the output poisoned, the cache flushed; or an empty call) -> STAGED; GO -> the
 * call -> DONE with the time and the digest of the output where it lies; FETCH -> its values.
 * FINISH ends them. */
static void serve_timed(runner *r)
{
    int vary = r->j->vary;
    if (vary >= r->p->nbufs || (vary >= 0 && r->b[vary].role != ROLE_IN)) _exit(RUNNER_BAD_JOB);
    unsigned char *vals = xmalloc(FETCH_MAX * elem_bytes(r->b[r->p->out].type));
    uint64_t *at = xmalloc(FETCH_MAX * sizeof *at);
    if (r->j->seeded && !r->st->on_device) _exit(RUNNER_BAD_JOB);
    r->c.seeded = r->j->seeded != 0;
    uint64_t *cell = secret_cell();
    if (r->c.seeded) recv_or_die(MSG_INPUT, cell, sizeof *cell); /* the inputs' seed: setup reads it there */
    else recv_inputs(r);
    if (r->st->setup) r->st->setup(&r->c);
    forget_seed();
    r->window = map_window(r->out_bytes);
    send_or_die(MSG_READY, NULL, 0);
    msg_head h;
    unsigned calls = 0;
    _Static_assert(sizeof(seed_msg) <= SECRET_CELL_BYTES, "SEED is read into the cell");
    for (;;) {
        if (read_all(PROTO_IN_FD, &h, sizeof h) || h.magic != PROTO_MAGIC) _exit(RUNNER_READ_FAILED);
        if (h.kind == MSG_FINISH && h.bytes == 0) break;
        if (h.kind != MSG_SEED || h.bytes != sizeof(seed_msg) || read_all(PROTO_IN_FD, cell, sizeof(seed_msg)))
            _exit(RUNNER_READ_FAILED);
        const seed_msg *m = (const seed_msg *)cell;
        uint64_t key = m->key;
        int empty = m->empty != 0;
        if (vary >= 0 && !empty) {
            if (r->st->vary) r->st->vary(&r->c, vary);
            else vary_from_cell(r, vary, &m->secret);
        }
        forget_seed();
        stage_call(r, calls);
        if (LAB.timer && LAB.timer->prepare) LAB.timer->prepare();
        send_or_die(MSG_STAGED, NULL, 0);
        recv_or_die(MSG_GO, NULL, 0);
        done_msg d = {.seconds = time_call(r, empty ? no_call : r->st->run)};
        if (digest_in_done(r->p, r->out_bytes))
            d.digest = r->st->digest ? r->st->digest(&r->c, r->p->out, key)
                                     : digest_bytes(r->c.buf[r->p->out], r->out_bytes, key);
        send_or_die(MSG_DONE, &d, sizeof d);
        answer_fetch(r, vals, at);
        calls += !empty;
    }
    trace_msg *trace = NULL;
    if (LAB.traced) { /* one more call, on the last inputs, to see what ran where (not timed) */
        trace = xcalloc(1, sizeof *trace);
        stage_call(r, calls);
        if (LAB.trace) LAB.trace->begin();
        time_call(r, r->st->run);
        if (LAB.trace) trace->count = LAB.trace->end(trace->ev, TRACE_MAX);
        if (r->st->post) r->st->post(&r->c);
    }
    uint64_t dig[LAB_MAX_BUFS] = {0};
    for (int i = 0; r->c.seeded && i < r->p->nbufs; i++)
        if (r->b[i].role == ROLE_IN) dig[i] = r->st->digest(&r->c, i, r->j->digest_key);
    if (r->st->teardown) r->st->teardown(&r->c);
    if (r->c.seeded) send_guards(r), send_input_digests(r, dig);
    else send_inputs_and_guards(r); /* the vary input is compared with the last call's */
    if (trace) send_or_die(MSG_TRACE, trace, sizeof *trace);
    free(trace);
    free(vals);
    free(at);
    if (r->window) munmap(r->window, r->out_bytes), r->window = NULL;
}

/* OpenMP's thread count for a case, where the student's object brought OpenMP in (lab 03). */
void omp_set_num_threads(int n) __attribute__((weak));

/* One case: buffers for its shape, its calls, and everything freed for the next. */
static void run_case(const job *j)
{
    if (j->stage >= (unsigned)LAB.nstages) _exit(RUNNER_BAD_JOB);
    if (j->threads > 0 && omp_set_num_threads) omp_set_num_threads(j->threads);
    runner r = {.j = j, .st = &LAB.stages[j->stage], .p = LAB.stages[j->stage].problem, .c = {.s = j->s}};
    r.c.p = r.p;
    r.p->layout(j->s, r.b);
    for (int i = 0; i < r.p->nbufs; i++) r.c.buf[i] = alloc_guarded(buf_bytes(&r.b[i]), guard_byte(&r.b[i]));
    r.in_bytes = inputs_bytes(r.p, j->s);
    r.back_bytes = back_bytes(r.p, j->s);
    r.nout = buf_elems(&r.b[r.p->out]);
    r.out_bytes = buf_bytes(&r.b[r.p->out]);
    r.initial = xmalloc(r.out_bytes + 1);
    if (j->timed) serve_timed(&r);
    else run_trials(&r);
    send_or_die(MSG_CASE_DONE, NULL, 0);
    for (int i = 0; i < r.p->nbufs; i++) free_guarded(r.c.buf[i]);
    free(r.initial);
}

int main(void)
{
    /* GPU labs initialise the device (which opens files and starts threads) before the filter. */
    if (LAB.timer && LAB.timer->init && LAB.timer->init()) _exit(RUNNER_NO_GPU);
    const char *tool = getenv(CUDA_TOOL_ENV);
    int sanitized = getenv("ASAN_OPTIONS") ? SANITIZED_ASAN
                    : tool && !strcmp(tool, "ncu") ? SANITIZED_PROFILER
                    : tool                         ? SANITIZED_CUDA
                                                   : SANITIZED_NOT;
    if (sandbox_enter(LAB.threads, LAB.gpu, sanitized)) _exit(RUNNER_NO_SANDBOX);
    msg_head h;
    job j;
    /* Cases until the scorer closes the channel (a clean end) or says something else. */
    while (read_all(PROTO_IN_FD, &h, sizeof h) == 0) {
        if (h.magic != PROTO_MAGIC || h.kind != MSG_CASE || h.bytes != sizeof j || read_all(PROTO_IN_FD, &j, sizeof j))
            _exit(RUNNER_READ_FAILED);
        run_case(&j);
    }
    return 0;
}
