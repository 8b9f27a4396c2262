/* Honest lab 05, written differently from the reference: every stage on streams it created
 * (blocking ones, cudaStreamCreate), the serial stages too; chunks of ceil(n / chunks) elements
 * (the last ones shorter or empty); and the pipeline queued breadth first, one round of `streams`
 * chunks at a time: all copies in of the round, then all kernels, then all copies out, the order
 * the CUDA C Best Practices Guide shows. The graph is captured in global mode. */
#include "streams.h"

#include <cuda_runtime.h>
#include <stdlib.h>

#include "honest/capture.h"

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

typedef struct job {
    int n, chunk, chunks, nstreams, pinned;
    const float *x;
    float *y, *dx, *dy;
    cudaStream_t *st;
    cudaEvent_t *ev; /* graph: fork and join */
    cudaGraph_t graph;
    cudaGraphExec_t exec;
} job;

static job *open_job(int n, int chunks, int streams, const float *x, float *y, const float *c, int pin)
{
    job *j = (job *)calloc(1, sizeof *j);
    j->n = n, j->chunks = chunks, j->nstreams = streams, j->x = x, j->y = y, j->pinned = pin;
    j->chunk = (n + chunks - 1) / chunks;
    cudaMalloc(&j->dx, (size_t)n * sizeof(float));
    cudaMalloc(&j->dy, (size_t)n * sizeof(float));
    cudaMemcpyToSymbol(coef, c, sizeof(float) * (POLY_DEGREE + 1));
    if (pin) {
        cudaHostRegister((void *)x, (size_t)n * sizeof(float), cudaHostRegisterPortable);
        cudaHostRegister(y, (size_t)n * sizeof(float), cudaHostRegisterPortable);
    }
    j->st = (cudaStream_t *)calloc(streams, sizeof *j->st);
    for (int i = 0; i < streams; i++) cudaStreamCreate(&j->st[i]);
    return j;
}

static void close_job(job *j)
{
    if (j->exec) cudaGraphExecDestroy(j->exec);
    if (j->graph) cudaGraphDestroy(j->graph);
    for (int i = 0; i < j->nstreams; i++) {
        cudaStreamDestroy(j->st[i]);
        if (j->ev) cudaEventDestroy(j->ev[i]);
    }
    if (j->pinned) {
        cudaHostUnregister((void *)j->x);
        cudaHostUnregister(j->y);
    }
    cudaFree(j->dx);
    cudaFree(j->dy);
    free(j->st);
    free(j->ev);
    free(j);
}

/* Chunk c: elements [lo, lo + len), len 0 past the end. */
static int chunk_at(const job *j, int c, size_t *lo)
{
    size_t a = (size_t)c * j->chunk, b = a + j->chunk;
    if (a > (size_t)j->n) a = j->n;
    if (b > (size_t)j->n) b = j->n;
    *lo = a;
    return (int)(b - a);
}

static void queue_rounds(job *j)
{
    for (int first = 0; first < j->chunks; first += j->nstreams) {
        int last = first + j->nstreams < j->chunks ? first + j->nstreams : j->chunks;
        for (int c = first; c < last; c++) {
            size_t lo;
            int len = chunk_at(j, c, &lo);
            if (len) cudaMemcpyAsync(j->dx + lo, j->x + lo, len * sizeof(float), cudaMemcpyHostToDevice, j->st[c - first]);
        }
        for (int c = first; c < last; c++) {
            size_t lo;
            int len = chunk_at(j, c, &lo);
            if (len) horner<<<(len + 127) / 128, 128, 0, j->st[c - first]>>>(len, j->dx + lo, j->dy + lo);
        }
        for (int c = first; c < last; c++) {
            size_t lo;
            int len = chunk_at(j, c, &lo);
            if (len) cudaMemcpyAsync(j->y + lo, j->dy + lo, len * sizeof(float), cudaMemcpyDeviceToHost, j->st[c - first]);
        }
    }
}

static void queue_job(void *j) { queue_rounds((job *)j); }

static void wait_all(job *j)
{
    for (int i = 0; i < j->nstreams; i++) cudaStreamSynchronize(j->st[i]);
}

extern "C" void *pageable_create(int n, const float *x, float *y, const float *c) { return open_job(n, 1, 1, x, y, c, 0); }
extern "C" void pageable_run(void *p) { queue_rounds((job *)p), wait_all((job *)p); }
extern "C" void pageable_destroy(void *p) { close_job((job *)p); }

extern "C" void *pinned_create(int n, const float *x, float *y, const float *c) { return open_job(n, 1, 1, x, y, c, 1); }
extern "C" void pinned_run(void *p) { queue_rounds((job *)p), wait_all((job *)p); }
extern "C" void pinned_destroy(void *p) { close_job((job *)p); }

extern "C" void *pipelined_create(int n, int chunks, int streams, const float *x, float *y, const float *c)
{
    return open_job(n, chunks, streams, x, y, c, 1);
}
extern "C" void pipelined_run(void *p) { queue_rounds((job *)p), wait_all((job *)p); }
extern "C" void pipelined_destroy(void *p) { close_job((job *)p); }

extern "C" void *graph_create(int n, int chunks, int streams, const float *x, float *y, const float *c)
{
    job *j = open_job(n, chunks, streams, x, y, c, 1);
    j->ev = (cudaEvent_t *)calloc(streams, sizeof *j->ev);
    for (int i = 0; i < streams; i++) cudaEventCreateWithFlags(&j->ev[i], cudaEventDisableTiming);
    capture_graph(j->st, streams, j->ev, cudaStreamCaptureModeGlobal, queue_job, j, &j->graph, &j->exec);
    return j;
}
extern "C" void graph_run(void *p) { replay(((job *)p)->exec, ((job *)p)->st[0]); }
extern "C" void graph_destroy(void *p) { close_job((job *)p); }
