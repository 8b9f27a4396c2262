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

/* Stage 5, y = A x: a block of 128 threads a row (shared-memory tree sum), chunks of ceil(m / 12)
 * rows over three blocking streams, queued breadth first as above; x copied in first, synchronously. */
static __global__ void row_tree(int n, const double *__restrict__ A, const double *__restrict__ x, double *__restrict__ y)
{
    __shared__ double s[128];
    const double *a = A + (size_t)blockIdx.x * n;
    double sum = 0;
    for (int j = threadIdx.x; j < n; j += 128) sum += a[j] * x[j];
    s[threadIdx.x] = sum;
    __syncthreads();
    for (int h = 64; h > 0; h /= 2) {
        if (threadIdx.x < h) s[threadIdx.x] += s[threadIdx.x + h];
        __syncthreads();
    }
    if (threadIdx.x == 0) y[blockIdx.x] = s[0];
}

typedef struct mv_job {
    int m, n, rows;
    const double *A, *x;
    double *y, *dA, *dx, *dy;
    cudaStream_t st[3];
} mv_job;

extern "C" void *matvec_create(int m, int n, const double *A, const double *x, double *y)
{
    mv_job *j = (mv_job *)calloc(1, sizeof *j);
    j->m = m, j->n = n, j->A = A, j->x = x, j->y = y, j->rows = (m + 11) / 12;
    cudaMalloc(&j->dA, (size_t)m * n * sizeof(double));
    cudaMalloc(&j->dx, (size_t)n * sizeof(double));
    cudaMalloc(&j->dy, (size_t)m * sizeof(double));
    cudaHostRegister((void *)A, (size_t)m * n * sizeof(double), cudaHostRegisterPortable);
    cudaHostRegister((void *)x, (size_t)n * sizeof(double), cudaHostRegisterPortable);
    cudaHostRegister(y, (size_t)m * sizeof(double), cudaHostRegisterPortable);
    for (int i = 0; i < 3; i++) cudaStreamCreate(&j->st[i]);
    return j;
}

extern "C" void matvec_run(void *p)
{
    mv_job *j = (mv_job *)p;
    cudaMemcpy(j->dx, j->x, (size_t)j->n * sizeof(double), cudaMemcpyHostToDevice);
    for (int round = 0; round * 3 * j->rows < j->m; round++) {
        for (int step = 0; step < 3; step++)
            for (int i = 0; i < 3; i++) {
                size_t lo = (size_t)(round * 3 + i) * j->rows, hi = lo + j->rows;
                if (hi > (size_t)j->m) hi = j->m;
                if (lo >= hi) continue;
                size_t off = lo * j->n;
                if (step == 0)
                    cudaMemcpyAsync(j->dA + off, j->A + off, (hi - lo) * j->n * sizeof(double), cudaMemcpyHostToDevice,
                                    j->st[i]);
                else if (step == 1) row_tree<<<(unsigned)(hi - lo), 128, 0, j->st[i]>>>(j->n, j->dA + off, j->dx, j->dy + lo);
                else cudaMemcpyAsync(j->y + lo, j->dy + lo, (hi - lo) * sizeof(double), cudaMemcpyDeviceToHost, j->st[i]);
            }
    }
    for (int i = 0; i < 3; i++) cudaStreamSynchronize(j->st[i]);
}

extern "C" void matvec_destroy(void *p)
{
    mv_job *j = (mv_job *)p;
    for (int i = 0; i < 3; i++) cudaStreamDestroy(j->st[i]);
    cudaHostUnregister((void *)j->A);
    cudaHostUnregister((void *)j->x);
    cudaHostUnregister(j->y);
    cudaFree(j->dA);
    cudaFree(j->dx);
    cudaFree(j->dy);
    free(j);
}
