/* Honest lab 05, written differently from the reference: streams by role, not by chunk. One stream
 * copies in, one computes, one copies out (fewer when fewer are given), and per-chunk events carry
 * each chunk from one to the next: the kernel of chunk c waits for its copy in, its copy out for
 * its kernel. Device memory is one allocation for x and y; the serial stages use the legacy
 * default stream and the kernel takes two elements a thread. */
#include "streams.h"

#include <cuda_runtime.h>
#include <stdlib.h>

#include "honest/capture.h"

static __constant__ float coef[POLY_DEGREE + 1];

/* Thread t takes elements t and t + half: two independent chains in flight a thread. */
static __global__ void horner2(int n, const float *__restrict__ x, float *__restrict__ y)
{
    int half = (n + 1) / 2, i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= half) return;
    float a = x[i], b = i + half < n ? x[i + half] : 0.0f;
    float ya = coef[POLY_DEGREE], yb = coef[POLY_DEGREE];
#pragma unroll
    for (int k = POLY_DEGREE - 1; k >= 0; k--) {
        ya = fmaf(ya, a, coef[k]);
        yb = fmaf(yb, b, coef[k]);
    }
    y[i] = ya;
    if (i + half < n) y[i + half] = yb;
}

static void compute(int n, const float *x, float *y, cudaStream_t s)
{
    int half = (n + 1) / 2;
    if (n > 0) horner2<<<(half + 255) / 256, 256, 0, s>>>(n, x, y);
}

enum { IN, RUN, OUT, ROLES };

typedef struct pipe {
    int n, chunks, nstreams, pinned;
    const float *x;
    float *y, *dev; /* dev: x's copy, then y's */
    cudaStream_t st[ROLES];
    cudaEvent_t *arrived, *computed; /* per chunk */
    cudaEvent_t ev[ROLES];           /* graph capture: fork and joins */
    int captured;
    cudaGraph_t graph;
    cudaGraphExec_t exec;
} pipe;

static cudaStream_t role(const pipe *p, int r) { return p->st[r % p->nstreams]; }

static pipe *open_pipe(int n, int chunks, int streams, const float *x, float *y, const float *c, int pin)
{
    pipe *p = (pipe *)calloc(1, sizeof *p);
    p->n = n, p->chunks = chunks, p->x = x, p->y = y, p->pinned = pin;
    p->nstreams = streams < ROLES ? streams : ROLES;
    cudaMalloc(&p->dev, 2 * (size_t)n * sizeof(float));
    cudaMemcpyToSymbol(coef, c, sizeof(float) * (POLY_DEGREE + 1));
    if (pin) {
        cudaHostRegister((void *)x, (size_t)n * sizeof(float), cudaHostRegisterDefault);
        cudaHostRegister(y, (size_t)n * sizeof(float), cudaHostRegisterDefault);
    }
    for (int r = 0; r < p->nstreams; r++) cudaStreamCreateWithFlags(&p->st[r], cudaStreamNonBlocking);
    if (streams > 0) {
        p->arrived = (cudaEvent_t *)calloc(chunks, sizeof *p->arrived);
        p->computed = (cudaEvent_t *)calloc(chunks, sizeof *p->computed);
        for (int c = 0; c < chunks; c++) {
            cudaEventCreateWithFlags(&p->arrived[c], cudaEventDisableTiming);
            cudaEventCreateWithFlags(&p->computed[c], cudaEventDisableTiming);
        }
    }
    return p;
}

static void close_pipe(pipe *p)
{
    if (p->exec) cudaGraphExecDestroy(p->exec);
    if (p->graph) cudaGraphDestroy(p->graph);
    for (int c = 0; p->arrived && c < p->chunks; c++) {
        cudaEventDestroy(p->arrived[c]);
        cudaEventDestroy(p->computed[c]);
    }
    for (int r = 0; p->captured && r < p->nstreams; r++) cudaEventDestroy(p->ev[r]);
    for (int r = 0; r < p->nstreams; r++) cudaStreamDestroy(p->st[r]);
    if (p->pinned) {
        cudaHostUnregister((void *)p->x);
        cudaHostUnregister(p->y);
    }
    cudaFree(p->dev);
    free(p->arrived);
    free(p->computed);
    free(p);
}

/* The serial stages: the legacy default stream, one step after another. */
static void serial(pipe *p)
{
    float *dx = p->dev, *dy = p->dev + p->n;
    cudaMemcpy(dx, p->x, (size_t)p->n * sizeof(float), cudaMemcpyHostToDevice);
    compute(p->n, dx, dy, 0);
    cudaMemcpy(p->y, dy, (size_t)p->n * sizeof(float), cudaMemcpyDeviceToHost);
}

/* Chunk c is [n c / chunks, n (c + 1) / chunks). */
static void queue_by_role(pipe *p)
{
    float *dx = p->dev, *dy = p->dev + p->n;
    for (int c = 0; c < p->chunks; c++) {
        size_t lo = (size_t)p->n * c / p->chunks, hi = (size_t)p->n * (c + 1) / p->chunks, len = hi - lo;
        if (!len) continue;
        cudaMemcpyAsync(dx + lo, p->x + lo, len * sizeof(float), cudaMemcpyHostToDevice, role(p, IN));
        cudaEventRecord(p->arrived[c], role(p, IN));
        cudaStreamWaitEvent(role(p, RUN), p->arrived[c], 0);
        compute((int)len, dx + lo, dy + lo, role(p, RUN));
        cudaEventRecord(p->computed[c], role(p, RUN));
        cudaStreamWaitEvent(role(p, OUT), p->computed[c], 0);
        cudaMemcpyAsync(p->y + lo, dy + lo, len * sizeof(float), cudaMemcpyDeviceToHost, role(p, OUT));
    }
}

static void queue_pipe(void *p) { queue_by_role((pipe *)p); }

extern "C" void *pageable_create(int n, const float *x, float *y, const float *c) { return open_pipe(n, 1, 0, x, y, c, 0); }
extern "C" void pageable_run(void *p) { serial((pipe *)p); }
extern "C" void pageable_destroy(void *p) { close_pipe((pipe *)p); }

extern "C" void *pinned_create(int n, const float *x, float *y, const float *c) { return open_pipe(n, 1, 0, x, y, c, 1); }
extern "C" void pinned_run(void *p) { serial((pipe *)p); }
extern "C" void pinned_destroy(void *p) { close_pipe((pipe *)p); }

extern "C" void *pipelined_create(int n, int chunks, int streams, const float *x, float *y, const float *c)
{
    return open_pipe(n, chunks, streams, x, y, c, 1);
}
extern "C" void pipelined_run(void *v)
{
    pipe *p = (pipe *)v;
    queue_by_role(p);
    cudaStreamSynchronize(role(p, OUT)); /* the copies out wait for everything before them */
}
extern "C" void pipelined_destroy(void *p) { close_pipe((pipe *)p); }

extern "C" void *graph_create(int n, int chunks, int streams, const float *x, float *y, const float *c)
{
    pipe *p = open_pipe(n, chunks, streams, x, y, c, 1);
    for (int r = 0; r < p->nstreams; r++) cudaEventCreateWithFlags(&p->ev[r], cudaEventDisableTiming);
    p->captured = 1;
    capture_graph(p->st, p->nstreams, p->ev, cudaStreamCaptureModeThreadLocal, queue_pipe, p, &p->graph, &p->exec);
    return p;
}
extern "C" void graph_run(void *v) { replay(((pipe *)v)->exec, ((pipe *)v)->st[0]); }
extern "C" void graph_destroy(void *p) { close_pipe((pipe *)p); }

/* Stage 5, y = A x: the three role streams again (copies in, kernels, copies out), each chunk of
 * 256 rows handed from one to the next by two events of its own; a warp a row in blocks of four
 * warps, each lane summing every 32nd element, then a shuffle sum. */
static __global__ void row_per_warp(int rows, int n, const double *__restrict__ A, const double *__restrict__ x,
                                    double *__restrict__ y)
{
    int r = blockIdx.x * 4 + threadIdx.x / 32, lane = threadIdx.x % 32;
    if (r >= rows) return;
    double sum = 0;
    for (int j = lane; j < n; j += 32) sum += A[(size_t)r * n + j] * x[j];
    for (int o = 16; o > 0; o /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, o);
    if (lane == 0) y[r] = sum;
}

#define MV_ROWS 256
typedef struct mv_pipe {
    int m, n, chunks;
    const double *A, *x;
    double *y, *dA, *dx, *dy;
    cudaStream_t st[ROLES];
    cudaEvent_t *in, *done;
} mv_pipe;

extern "C" void *matvec_create(int m, int n, const double *A, const double *x, double *y)
{
    mv_pipe *p = (mv_pipe *)calloc(1, sizeof *p);
    p->m = m, p->n = n, p->A = A, p->x = x, p->y = y, p->chunks = (m + MV_ROWS - 1) / MV_ROWS;
    cudaMalloc(&p->dA, (size_t)m * n * sizeof(double));
    cudaMalloc(&p->dx, (size_t)n * sizeof(double));
    cudaMalloc(&p->dy, (size_t)m * sizeof(double));
    cudaHostRegister((void *)A, (size_t)m * n * sizeof(double), 0);
    cudaHostRegister((void *)x, (size_t)n * sizeof(double), 0);
    cudaHostRegister(y, (size_t)m * sizeof(double), 0);
    for (int r = 0; r < ROLES; r++) cudaStreamCreateWithFlags(&p->st[r], cudaStreamNonBlocking);
    p->in = (cudaEvent_t *)calloc(p->chunks, sizeof *p->in);
    p->done = (cudaEvent_t *)calloc(p->chunks, sizeof *p->done);
    for (int c = 0; c < p->chunks; c++) {
        cudaEventCreateWithFlags(&p->in[c], cudaEventDisableTiming);
        cudaEventCreateWithFlags(&p->done[c], cudaEventDisableTiming);
    }
    return p;
}

extern "C" void matvec_run(void *v)
{
    mv_pipe *p = (mv_pipe *)v;
    cudaMemcpyAsync(p->dx, p->x, (size_t)p->n * sizeof(double), cudaMemcpyHostToDevice, p->st[IN]);
    for (int c = 0; c < p->chunks; c++) {
        size_t lo = (size_t)c * MV_ROWS, hi = lo + MV_ROWS < (size_t)p->m ? lo + MV_ROWS : (size_t)p->m, off = lo * p->n;
        cudaMemcpyAsync(p->dA + off, p->A + off, (hi - lo) * p->n * sizeof(double), cudaMemcpyHostToDevice, p->st[IN]);
        cudaEventRecord(p->in[c], p->st[IN]);
        cudaStreamWaitEvent(p->st[RUN], p->in[c], 0);
        row_per_warp<<<(unsigned)((hi - lo + 3) / 4), 128, 0, p->st[RUN]>>>((int)(hi - lo), p->n, p->dA + off, p->dx,
                                                                            p->dy + lo);
        cudaEventRecord(p->done[c], p->st[RUN]);
        cudaStreamWaitEvent(p->st[OUT], p->done[c], 0);
        cudaMemcpyAsync(p->y + lo, p->dy + lo, (hi - lo) * sizeof(double), cudaMemcpyDeviceToHost, p->st[OUT]);
    }
    cudaStreamSynchronize(p->st[OUT]);
}

extern "C" void matvec_destroy(void *v)
{
    mv_pipe *p = (mv_pipe *)v;
    for (int c = 0; c < p->chunks; c++) cudaEventDestroy(p->in[c]), cudaEventDestroy(p->done[c]);
    for (int r = 0; r < ROLES; r++) cudaStreamDestroy(p->st[r]);
    cudaHostUnregister((void *)p->A);
    cudaHostUnregister((void *)p->x);
    cudaHostUnregister(p->y);
    cudaFree(p->dA);
    cudaFree(p->dx);
    cudaFree(p->dy);
    free(p->in);
    free(p->done);
    free(p);
}
