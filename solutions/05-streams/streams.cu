/* streams.cu - lab 05 reference: y = p(x) through the GPU and back, four ways.
 *
 * One kernel serves every stage; what changes is how the data gets there. All four stages keep
 * their state in one struct, so a stage is the previous one plus one idea: pageable copies, then
 * the same copies from page-locked memory, then chunks spread over streams, then that schedule
 * captured once as a graph. */
#include "streams.h"

#include <cuda_runtime.h>
#include <stdlib.h>

/* ================================================================ the kernel */

/* Every thread of a warp reads the same coefficient at the same step: constant memory broadcasts
 * it, and with the loop unrolled each coefficient is an operand of its fused multiply-add. */
static __constant__ float coef[POLY_DEGREE + 1];

static __global__ void horner(int n, const float *__restrict__ x, float *__restrict__ y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i], acc = coef[POLY_DEGREE];
#pragma unroll
    for (int k = POLY_DEGREE - 1; k >= 0; k--) acc = fmaf(acc, v, coef[k]);
    y[i] = acc;
}

static void launch(int n, const float *x, float *y, cudaStream_t s)
{
    if (n > 0) horner<<<(n + 255) / 256, 256, 0, s>>>(n, x, y);
}

/* ================================================================ state shared by the stages */

typedef struct state {
    int n, chunks, nstreams;
    const float *x;
    float *y, *dx, *dy;
    int pinned;           /* x and y registered with cudaHostRegister */
    cudaStream_t *stream; /* pipelined and graph stages */
    cudaEvent_t *joined;  /* graph: one per stream, for the fork and the join of the capture */
    cudaGraph_t graph;
    cudaGraphExec_t exec;
} state;

static size_t bytes(int n) { return (size_t)n * sizeof(float); }

static state *make(int n, const float *x, float *y, const float *c, int pin)
{
    state *s = (state *)calloc(1, sizeof *s);
    s->n = n, s->x = x, s->y = y, s->chunks = 1;
    cudaMalloc(&s->dx, bytes(n));
    cudaMalloc(&s->dy, bytes(n));
    cudaMemcpyToSymbol(coef, c, sizeof(float) * (POLY_DEGREE + 1));
    if (pin) { /* page-locked: the copy engines read and write it directly, at full speed */
        cudaHostRegister((void *)x, bytes(n), cudaHostRegisterDefault);
        cudaHostRegister(y, bytes(n), cudaHostRegisterDefault);
        s->pinned = 1;
    }
    return s;
}

static void release(state *s)
{
    for (int i = 0; i < s->nstreams; i++) {
        cudaStreamDestroy(s->stream[i]);
        if (s->joined) cudaEventDestroy(s->joined[i]);
    }
    if (s->exec) cudaGraphExecDestroy(s->exec);
    if (s->graph) cudaGraphDestroy(s->graph);
    if (s->pinned) {
        cudaHostUnregister((void *)s->x);
        cudaHostUnregister(s->y);
    }
    cudaFree(s->dx);
    cudaFree(s->dy);
    free(s->stream);
    free(s->joined);
    free(s);
}

/* ================================================================ stages 1 and 2: one stream */

/* Copy in, compute, copy out, one after the other on the default stream. From pageable memory the
 * driver stages each copy through a pinned bounce buffer; from pinned memory it doesn't. */
static void serial_run(state *s)
{
    cudaMemcpy(s->dx, s->x, bytes(s->n), cudaMemcpyHostToDevice);
    launch(s->n, s->dx, s->dy, 0);
    cudaMemcpy(s->y, s->dy, bytes(s->n), cudaMemcpyDeviceToHost);
}

extern "C" void *pageable_create(int n, const float *x, float *y, const float *c) { return make(n, x, y, c, 0); }
extern "C" void pageable_run(void *p) { serial_run((state *)p); }
extern "C" void pageable_destroy(void *p) { release((state *)p); }

extern "C" void *pinned_create(int n, const float *x, float *y, const float *c) { return make(n, x, y, c, 1); }
extern "C" void pinned_run(void *p) { serial_run((state *)p); }
extern "C" void pinned_destroy(void *p) { release((state *)p); }

/* ================================================================ stage 3: the pipeline */

static state *make_pipeline(int n, int chunks, int streams, const float *x, float *y, const float *c)
{
    state *s = make(n, x, y, c, 1);
    s->chunks = chunks;
    s->nstreams = streams;
    s->stream = (cudaStream_t *)calloc(streams, sizeof *s->stream);
    /* Non-blocking: no implicit ordering with the legacy default stream. */
    for (int i = 0; i < streams; i++) cudaStreamCreateWithFlags(&s->stream[i], cudaStreamNonBlocking);
    return s;
}

/* Chunk j is elements [n j / chunks, n (j + 1) / chunks): sizes differ by at most one, and a chunk
 * is empty when chunks > n. Within a stream the three steps of a chunk stay in order; across
 * streams the copy engines and the SMs work on different chunks at once. */
static void enqueue_chunks(state *s)
{
    for (int j = 0; j < s->chunks; j++) {
        size_t lo = (size_t)s->n * j / s->chunks, hi = (size_t)s->n * (j + 1) / s->chunks;
        if (hi == lo) continue;
        cudaStream_t st = s->stream[j % s->nstreams];
        cudaMemcpyAsync(s->dx + lo, s->x + lo, (hi - lo) * sizeof(float), cudaMemcpyHostToDevice, st);
        launch((int)(hi - lo), s->dx + lo, s->dy + lo, st);
        cudaMemcpyAsync(s->y + lo, s->dy + lo, (hi - lo) * sizeof(float), cudaMemcpyDeviceToHost, st);
    }
}

extern "C" void *pipelined_create(int n, int chunks, int streams, const float *x, float *y, const float *c)
{
    return make_pipeline(n, chunks, streams, x, y, c);
}

extern "C" void pipelined_run(void *p)
{
    state *s = (state *)p;
    enqueue_chunks(s);
    for (int i = 0; i < s->nstreams; i++) cudaStreamSynchronize(s->stream[i]);
}

extern "C" void pipelined_destroy(void *p) { release((state *)p); }

/* ================================================================ stage 4: the pipeline as a graph */

/* Capture starts on stream 0; the others join the capture by waiting on an event recorded there
 * (the fork), and stream 0 waits on one recorded at the end of each (the join). Replaying the
 * graph then costs one launch instead of three API calls a chunk. */
extern "C" void *graph_create(int n, int chunks, int streams, const float *x, float *y, const float *c)
{
    state *s = make_pipeline(n, chunks, streams, x, y, c);
    s->joined = (cudaEvent_t *)calloc(streams, sizeof *s->joined);
    for (int i = 0; i < streams; i++) cudaEventCreateWithFlags(&s->joined[i], cudaEventDisableTiming);
    cudaStream_t origin = s->stream[0];
    cudaStreamBeginCapture(origin, cudaStreamCaptureModeThreadLocal);
    cudaEventRecord(s->joined[0], origin);
    for (int i = 1; i < streams; i++) cudaStreamWaitEvent(s->stream[i], s->joined[0], 0);
    enqueue_chunks(s);
    for (int i = 1; i < streams; i++) {
        cudaEventRecord(s->joined[i], s->stream[i]);
        cudaStreamWaitEvent(origin, s->joined[i], 0);
    }
    cudaStreamEndCapture(origin, &s->graph);
    cudaGraphInstantiate(&s->exec, s->graph, 0);
    return s;
}

extern "C" void graph_run(void *p)
{
    state *s = (state *)p;
    cudaGraphLaunch(s->exec, s->stream[0]);
    cudaStreamSynchronize(s->stream[0]);
}

extern "C" void graph_destroy(void *p) { release((state *)p); }
