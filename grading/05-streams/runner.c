/* runner.c - lab 05's runner side (built into the runner only, with -DLAB_RUNNER, and picked up
 * by the Makefile as any lab's grading/NN-name/runner.c is): the wrappers that count what the
 * student's code creates and destroys and trace what it queues, the timer, and the adaptors the
 * stage table of lab.c points to (runner.h). */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cuda_runtime_api.h>

#include "cuda_check.h"
#include "gpu.h"
#include "lab.h"
#include "problems.h"
#include "proto.h"
#include "runner.h"
#include "streams.h"

/* The runner is linked with --wrap for every call below (thresholds.conf, ldlibs): the student's
 * calls come here first. Each creation and destruction is counted, so destroy can be checked; and
 * while tracing, each copy and launch is bracketed by two events on its stream (recorded as
 * graph nodes when the stream is being captured), which give the timeline. */

enum { ALLOC_DEVICE, ALLOC_PINNED, REGISTERED, STREAMS, EVENTS, GRAPHS, GRAPH_EXECS, KINDS };
static const char *const kind_name[KINDS] = {"device allocations (cudaMalloc)", "pinned allocations (cudaMallocHost)",
                                             "host registrations (cudaHostRegister)", "streams", "events", "graphs",
                                             "instantiated graphs"};
static long live[KINDS];

static void count(cudaError_t e, int kind, int delta)
{
    if (e == cudaSuccess) live[kind] += delta;
}

#define TRACE_EVENTS (2 * TRACE_MAX)
static cudaEvent_t pool[TRACE_EVENTS], origin;
static struct { int stream, kind; } op[TRACE_MAX];
static int tracing, used, mark;
static cudaStream_t seen[64];
static int nseen;


static int stream_index(cudaStream_t s)
{
    if (s == 0 || s == cudaStreamLegacy || s == cudaStreamPerThread) return 0;
    for (int i = 0; i < nseen; i++)
        if (seen[i] == s) return i + 1;
    if (nseen < 64) seen[nseen++] = s;
    return nseen;
}

/* An event on stream s: while s is being captured, as an external event node of the graph (it then
 * fires at every launch); otherwise an ordinary record (the external flag is refused outside a
 * capture with cudaErrorIllegalState). */
static void trace_record(cudaEvent_t e, cudaStream_t s)
{
    enum cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
    if (cudaStreamIsCapturing(s, &st) == cudaSuccess && st == cudaStreamCaptureStatusActive)
        cudaEventRecordWithFlags(e, s, cudaEventRecordExternal);
    else
        cudaEventRecord(e, s);
}

/* Before an operation on stream s: its start event; returns the slot, or -1 when not tracing. */
static int trace_open(cudaStream_t s, int kind)
{
    if (!tracing || used >= TRACE_MAX || wb_harness_launch) return -1; /* not the timer's own kernel */
    int slot = used++;
    op[slot].stream = stream_index(s);
    op[slot].kind = kind;
    trace_record(pool[2 * slot], s);
    return slot;
}

static void trace_close(int slot, cudaStream_t s)
{
    if (slot >= 0) trace_record(pool[2 * slot + 1], s);
}

static int copy_kind(enum cudaMemcpyKind k)
{
    return k == cudaMemcpyHostToDevice ? TRACE_H2D : k == cudaMemcpyDeviceToHost ? TRACE_D2H : TRACE_OTHER;
}

#define WRAP(ret, name, params) \
    ret __real_##name params;   \
    ret __wrap_##name params

WRAP(cudaError_t, cudaMemcpyAsync, (void *d, const void *s, size_t n, enum cudaMemcpyKind k, cudaStream_t st))
{
    int slot = trace_open(st, copy_kind(k));
    cudaError_t e = __real_cudaMemcpyAsync(d, s, n, k, st);
    trace_close(slot, st);
    return e;
}
WRAP(cudaError_t, cudaMemcpy, (void *d, const void *s, size_t n, enum cudaMemcpyKind k))
{
    int slot = trace_open(0, copy_kind(k));
    cudaError_t e = __real_cudaMemcpy(d, s, n, k);
    trace_close(slot, 0);
    return e;
}
/* nvcc's launch stubs call __cudaLaunchKernel in recent toolkits (13.0 here), cudaLaunchKernel in
 * older ones: with an older toolkit nothing calls this wrapper, and the weak reference lets the
 * runner link without the symbol. */
#if CUDART_VERSION >= 12000
cudaError_t __real___cudaLaunchKernel(cudaKernel_t f, dim3 g, dim3 b, void **a, size_t sh, cudaStream_t st)
    __attribute__((weak));
WRAP(cudaError_t, __cudaLaunchKernel, (cudaKernel_t f, dim3 g, dim3 b, void **a, size_t sh, cudaStream_t st))
{
    int slot = trace_open(st, TRACE_KERNEL);
    cudaError_t e = __real___cudaLaunchKernel(f, g, b, a, sh, st);
    trace_close(slot, st);
    return e;
}
#endif
WRAP(cudaError_t, cudaLaunchKernel, (const void *f, dim3 g, dim3 b, void **a, size_t sh, cudaStream_t st))
{
    int slot = trace_open(st, TRACE_KERNEL);
    cudaError_t e = __real_cudaLaunchKernel(f, g, b, a, sh, st);
    trace_close(slot, st);
    return e;
}

#define COUNTED(name, params, args, kind, delta) \
    WRAP(cudaError_t, name, params)              \
    {                                            \
        cudaError_t rc = __real_##name args;     \
        count(rc, kind, delta);                  \
        return rc;                               \
    }
COUNTED(cudaMalloc, (void **p, size_t n), (p, n), ALLOC_DEVICE, +1)
COUNTED(cudaFree, (void *p), (p), ALLOC_DEVICE, p ? -1 : 0)
COUNTED(cudaMallocHost, (void **p, size_t n), (p, n), ALLOC_PINNED, +1)
COUNTED(cudaHostAlloc, (void **p, size_t n, unsigned f), (p, n, f), ALLOC_PINNED, +1)
COUNTED(cudaFreeHost, (void *p), (p), ALLOC_PINNED, p ? -1 : 0)
COUNTED(cudaHostRegister, (void *p, size_t n, unsigned f), (p, n, f), REGISTERED, +1)
COUNTED(cudaHostUnregister, (void *p), (p), REGISTERED, -1)
COUNTED(cudaStreamCreate, (cudaStream_t *s), (s), STREAMS, +1)
COUNTED(cudaStreamCreateWithFlags, (cudaStream_t *s, unsigned f), (s, f), STREAMS, +1)
COUNTED(cudaStreamDestroy, (cudaStream_t s), (s), STREAMS, -1)
COUNTED(cudaEventCreate, (cudaEvent_t *e), (e), EVENTS, +1)
COUNTED(cudaEventCreateWithFlags, (cudaEvent_t *e, unsigned f), (e, f), EVENTS, +1)
COUNTED(cudaEventDestroy, (cudaEvent_t e), (e), EVENTS, -1)
COUNTED(cudaStreamEndCapture, (cudaStream_t s, cudaGraph_t *g), (s, g), GRAPHS, +1)
COUNTED(cudaGraphDestroy, (cudaGraph_t g), (g), GRAPHS, -1)
COUNTED(cudaGraphInstantiate, (cudaGraphExec_t *x, cudaGraph_t g, unsigned long long f), (x, g, f), GRAPH_EXECS, +1)
COUNTED(cudaGraphExecDestroy, (cudaGraphExec_t x), (x), GRAPH_EXECS, -1)

/* The timeline of one call: operations whose events fired after the origin (ones captured into a
 * graph at create fire again at every launch; ones run during create are older and left out). */
static void trace_begin(void)
{
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaEventRecord(origin, 0));
    tracing = 1;
    used = mark;
}

static int trace_end(trace_event *out, int max)
{
    tracing = 0;
    CUDA_CHECK(cudaDeviceSynchronize());
    int n = 0;
    double first = INFINITY;
    for (int slot = 0; slot < used && n < max; slot++) {
        float a, b;
        if (cudaEventElapsedTime(&a, origin, pool[2 * slot]) != cudaSuccess ||
            cudaEventElapsedTime(&b, origin, pool[2 * slot + 1]) != cudaSuccess || a < 0 || b < a)
            continue;
        out[n++] = (trace_event){op[slot].stream, op[slot].kind, a * 1e-3, b * 1e-3};
        first = fmin(first, a * 1e-3);
    }
    cudaGetLastError(); /* events never recorded (captured, never launched) answer with an error */
    for (int i = 0; i < n; i++) out[i].t0 -= first, out[i].t1 -= first;
    return n;
}

const lab_trace streams_tracer = {trace_begin, trace_end};

/* The device, the timer's events, and the trace's, before the sandbox closes. */
static int init(void)
{
    if (gpu_timer.init()) return 1;
    wb_gpu_timer_hold(20000); /* its calls wait on copies and streams: each wait would last the hold */
    /* counted, like every creation, but the counts start again at each create */
    for (int i = 0; i < TRACE_EVENTS; i++) CUDA_CHECK(cudaEventCreate(&pool[i]));
    CUDA_CHECK(cudaEventCreate(&origin));
    return 0;
}
static double time_call(void (*run)(lab_call *), lab_call *c) { return gpu_timer.time(run, c); }
const lab_timer streams_timer = {init, time_call};

/* create runs with tracing on, so a graph captured there carries its events; its own work and
 * setup copies are older than any traced call's origin. */
static void begin_create(void)
{
    memset(live, 0, sizeof live);
    nseen = 0;
    tracing = 1;
    used = 0;
}
static void end_create(lab_call *c)
{
    (void)c;
    tracing = 0;
    mark = used;
    /* A call that failed in create (a registration refused, say) and was not checked shows here. */
    CUDA_CHECK(cudaDeviceSynchronize());
    cuda_check_at(cudaGetLastError(), "a CUDA call in create", __FILE__, __LINE__);
}

/* After destroy everything create made must be gone. */
static void check_released(void)
{
    int leaked = 0;
    for (int k = 0; k < KINDS; k++) leaked |= live[k] != 0;
    if (!leaked) return;
    fprintf(stderr, "left behind after destroy:");
    for (int k = 0; k < KINDS; k++)
        if (live[k]) fprintf(stderr, " %ld %s%s", live[k], kind_name[k], live[k] < 0 ? " (more released than made)" : "");
    fprintf(stderr, "\n");
    fflush(stderr);
    _exit(RUNNER_LEAK);
}

#define X(c) ((const float *)(c)->buf[PX])
#define C(c) ((const float *)(c)->buf[PC])
#define Y(c) ((float *)(c)->buf[PY])
#define STAGE_ADAPTORS(name, create_call)                                   \
    void name##_setup(lab_call *c)                                   \
    {                                                                       \
        begin_create();                                                     \
        c->ctx = create_call;                                               \
        end_create(c);                                                      \
    }                                                                       \
    void name##_call(lab_call *c) { name##_run(c->ctx); }            \
    void name##_teardown(lab_call *c)                                \
    {                                                                       \
        CUDA_CHECK(cudaDeviceSynchronize());                                \
        name##_destroy(c->ctx);                                             \
        c->ctx = NULL;                                                      \
        check_released();                                                   \
    }
STAGE_ADAPTORS(pageable, pageable_create(c->s.n, X(c), Y(c), C(c)))
STAGE_ADAPTORS(pinned, pinned_create(c->s.n, X(c), Y(c), C(c)))
STAGE_ADAPTORS(pipelined, pipelined_create(c->s.n, c->s.k, c->s.m, X(c), Y(c), C(c)))
STAGE_ADAPTORS(graph, graph_create(c->s.n, c->s.k, c->s.m, X(c), Y(c), C(c)))
STAGE_ADAPTORS(matvec, matvec_create(c->s.m, c->s.n, (const double *)c->buf[MATVEC_A], (const double *)c->buf[MATVEC_X],
                                     (double *)c->buf[MATVEC_Y]))

/* A file written before stage 5 came (or whose author has not reached it) has no matvec functions:
 * these stand in at the link, so its other stages are graded, and this one fails, saying why. */
__attribute__((weak)) void *matvec_create(int m, int n, const double *A, const double *x, double *y)
{
    (void)m, (void)n, (void)A, (void)x, (void)y;
    fprintf(stderr, "matvec_create, matvec_run and matvec_destroy are not in your file: stage 5 (matvec) not written "
                    "(its prototypes are in streams.h; the starter has them)\n");
    fflush(stderr);
    _exit(1);
}
__attribute__((weak)) void matvec_run(void *state) { (void)state; }
__attribute__((weak)) void matvec_destroy(void *state) { (void)state; }
