/* lab.c - lab 05: y = p(x) for a host array x, through the GPU and back, four ways: pageable
 * copies, pinned copies, a multi-stream pipeline, and the pipeline as a CUDA graph. The student
 * owns every allocation and copy; the harness times the whole trip and, in the runner, counts what
 * the student's code creates and destroys and records what it queued on which stream. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "lab.h"
#include "streams.h"

/* ---------------------------------------------------------------- the problem: y = p(x) */

enum { PX, PC, PY };

static void poly_layout(lab_shape s, lab_buf *b)
{
    b[PX] = (lab_buf){"x", ROLE_IN, F32, 1, (size_t)s.n};
    b[PC] = (lab_buf){"c", ROLE_IN, F32, 1, POLY_DEGREE + 1};
    b[PY] = (lab_buf){"y", ROLE_OUT, F32, 1, (size_t)s.n};
}
/* One multiply and one add a degree an element; the bytes are what crosses PCIe: x in, y out. */
static double poly_flops(lab_shape s) { return 2.0 * POLY_DEGREE * s.n; }
static double poly_bytes(lab_shape s) { return 8.0 * s.n; }

/* Horner's rule in double. Evaluated in float by Horner (with or without fused multiply-adds), by
 * Estrin's scheme or term by term, the error is at most about 2 d u sum |c_k| |x|^k (d the degree,
 * u = 2^-24), which the second Horner pass on absolute values computes. A kernel that drops or
 * shifts a coefficient, or an element, is wrong by far more. One element's Horner is a chain of
 * dependent multiply-adds, so the elements go BLOCK at a time, the inner loop across them (it
 * vectorises), and blocks across the scorer's cores: 2^24 elements of degree 2048 is 7e10 of them. */
#define BLOCK 64
static void poly_block(const float *x, const float *c, const uint64_t *at, size_t count, double *ref, double *bound)
{
    double v[BLOCK], a[BLOCK], y[BLOCK], m[BLOCK];
    for (size_t j = 0; j < BLOCK; j++) {
        v[j] = j < count ? x[at[j]] : 0, a[j] = fabs(v[j]);
        y[j] = c[POLY_DEGREE], m[j] = fabs((double)c[POLY_DEGREE]);
    }
    for (int k = POLY_DEGREE - 1; k >= 0; k--) {
        double ck = c[k], mk = fabs(ck);
        for (size_t j = 0; j < BLOCK; j++) {
            y[j] = y[j] * v[j] + ck;
            m[j] = m[j] * a[j] + mk;
        }
    }
    for (size_t j = 0; j < count; j++) {
        ref[at[j]] = y[j];
        bound[at[j]] = 2.5 * (POLY_DEGREE + 1) * 0x1p-24 * m[j] + 0x1p-100;
    }
}

static void poly_reference_at(lab_shape s, void *const *buf, const uint64_t *at, size_t count, double *ref,
                              double *bound)
{
    (void)s;
#ifndef LAB_RUNNER
#pragma omp parallel for schedule(static)
#endif
    for (size_t b = 0; b < (count + BLOCK - 1) / BLOCK; b++) {
        size_t lo = b * BLOCK, len = count - lo < BLOCK ? count - lo : BLOCK;
        poly_block(buf[PX], buf[PC], at + lo, len, ref, bound);
    }
}

static void poly_reference(lab_shape s, void *const *buf, double *ref, double *bound)
{
    uint64_t *all = malloc((size_t)s.n * sizeof *all);
    for (size_t i = 0; i < (size_t)s.n; i++) all[i] = i;
    poly_reference_at(s, buf, all, (size_t)s.n, ref, bound);
    free(all);
}

/* (streams, n, chunks): one element; fewer elements than chunks; chunks that don't divide n; more
 * streams than chunks; one stream; a prime n; random ones; and the timed size, 2^24 floats (64 MiB
 * each way) in 32 chunks over 4 streams. Stages 1 and 2 ignore streams and chunks. */
static int poly_cases(rng *r, size_t llc, lab_case *out)
{
    lab_shape s[] = {{1, 1, 1},
                     {3, 5, 8},
                     {2, 1000, 3},
                     {8, 4099, 5},
                     {1, 65537, 4},
                     {4, 999983, 7},
                     {rng_int(r, 1, 6), rng_int(r, 1000, 300000), rng_int(r, 1, 40)},
                     {3, (1 << 20) + rng_int(r, 1, 4095), 16},
                     {4, 1 << 24, 32}};
    int n = sizeof s / sizeof s[0];
    for (int i = 0; i < n; i++) out[i] = (lab_case){s[i], i == n - 1};
    (void)llc;
    return n;
}

/* How the gain levels off with the number of streams (32 chunks), then with the number of chunks
 * (4 streams), at the timed size. */
static int poly_bench(size_t llc, lab_case *out)
{
    static const int streams[] = {1, 2, 3, 4, 8, 16}, chunks[] = {4, 8, 16, 64, 128, 512};
    int k = 0;
    for (int i = 0; i < 6; i++) out[k++] = (lab_case){{streams[i], 1 << 24, 32}, 1};
    for (int i = 0; i < 6; i++) out[k++] = (lab_case){{4, 1 << 24, chunks[i]}, 1};
    (void)llc;
    return k;
}

static const lab_problem poly = {
    .name = "poly", .dim_names = {"streams", "n", "chunks"}, .nbufs = 3, .out = PY, .vary = PX,
    .layout = poly_layout, .flops = poly_flops, .bytes = poly_bytes, .reference = poly_reference,
    .reference_at = poly_reference_at, .ceiling = CEIL_PIPELINE, .poly_degree = POLY_DEGREE, .lo = -1, .hi = 1,
    .cases = poly_cases, .bench_cases = poly_bench,
};

/* ---------------------------------------------------------------- the runner's side */

#ifdef LAB_RUNNER
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cuda_runtime_api.h>

#include "cuda_check.h"
#include "gpu.h"
#include "proto.h"

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
    if (!tracing || used >= TRACE_MAX) return -1;
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

static const lab_trace tracer = {trace_begin, trace_end};

/* The device, the timer's events, and the trace's, before the sandbox closes. */
static int init(void)
{
    if (gpu_timer.init()) return 1;
    /* counted, like every creation, but the counts start again at each create */
    for (int i = 0; i < TRACE_EVENTS; i++) CUDA_CHECK(cudaEventCreate(&pool[i]));
    CUDA_CHECK(cudaEventCreate(&origin));
    return 0;
}
static double time_call(void (*run)(lab_call *), lab_call *c) { return gpu_timer.time(run, c); }
static const lab_timer timer = {init, time_call};

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
    static void name##_setup(lab_call *c)                                   \
    {                                                                       \
        begin_create();                                                     \
        c->ctx = create_call;                                               \
        end_create(c);                                                      \
    }                                                                       \
    static void name##_call(lab_call *c) { name##_run(c->ctx); }            \
    static void name##_teardown(lab_call *c)                                \
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
#endif

/* The harness does no copies of its own: the student's functions get the host arrays. */
#define STAGE(id, what, name) \
    {id, #name "_create " #name "_run " #name "_destroy", what, &poly, RUNNER_ONLY(name##_setup), NULL, RUNNER_ONLY(name##_call), NULL, \
     RUNNER_ONLY(name##_teardown)}

static const lab_stage stages[] = {
    STAGE("pageable", "malloc'd host memory, one stream: copy in, compute, copy out", pageable),
    STAGE("pinned", "the host arrays page-locked: the same three steps at full copy speed", pinned),
    STAGE("pipelined", "chunks over several streams: copy in, compute and copy out overlap", pipelined),
    STAGE("graph", "the pipeline captured once as a CUDA graph, replayed", graph),
};

const lab LAB = {
    .id = "05-streams",
    .title = "CUDA streams: pinned memory and a copy/compute pipeline",
    .source = "streams.cu",
    .threads = 1,
    .gpu = 1,
    .stages = stages,
    .nstages = sizeof stages / sizeof stages[0],
    .timer = RUNNER_ONLY(&timer),
    .traced = 1,
    .trace = RUNNER_ONLY(&tracer),
};
