/* streams.cu - lab 05: moving data through the GPU. This is the one file you edit for this lab.
 *
 * Read handouts/05-streams.md first. The prototypes are in grading/05-streams/streams.h (do not
 * edit it). Grade with:  make grade LAB=05   (on a machine with an NVIDIA GPU)
 *
 * Each stage has create (untimed: allocate, pin, make streams, capture), run (timed: y = p(x) from
 * host x to host y; in stage 5, y = A x) and destroy (untimed: release everything create made; the
 * grader counts). The kernels are written for you: this lab is about getting the data to them and back. Make your
 * helpers `static` (only the functions of streams.h may be global). */
#include "streams.h"

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

/* ================================================================ error checks (given)
 *
 * Wrap every CUDA call: CUDA_CHECK(cudaMalloc(&d_x, bytes)); and after a launch, CUDA_CHECK_LAST().
 * A call that fails prints itself, the error and its line here, and stops: the grader reports the
 * stage as a crash and shows what was printed. Inside a stream capture (stage 4) a failed call
 * also shows here, at the call that broke the capture. */
[[maybe_unused]] static void check_at(cudaError_t e, const char *call, int line)
{
    if (e == cudaSuccess) return;
    fprintf(stderr, "CUDA error %s (%s)\n  in %s\n  at streams.cu:%d\n", cudaGetErrorName(e), cudaGetErrorString(e),
            call, line);
    exit(1);
}
#define CUDA_CHECK(call) check_at((call), #call, __LINE__)
#define CUDA_CHECK_LAST() check_at(cudaGetLastError(), "the kernel launch before this line", __LINE__)

/* ================================================================ the kernel (given) */

/* The coefficients live in constant memory: every thread of a warp reads the same one at the same
 * step, which constant memory broadcasts. Copy them in with cudaMemcpyToSymbol(coef, c, bytes). */
static __constant__ float coef[POLY_DEGREE + 1];

/* y[i] = p(x[i]) for 0 <= i < n by Horner's rule; x and y are device pointers. */
static __global__ void horner(int n, const float *__restrict__ x, float *__restrict__ y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i], acc = coef[POLY_DEGREE];
#pragma unroll
    for (int k = POLY_DEGREE - 1; k >= 0; k--) acc = fmaf(acc, v, coef[k]);
    y[i] = acc;
}

/* The kernel over n elements of device arrays x and y, queued on stream s (0: the default stream). */
static void launch(int n, const float *x, float *y, cudaStream_t s)
{
    if (n > 0) horner<<<(n + 255) / 256, 256, 0, s>>>(n, x, y);
}

/* What your stages keep between create and destroy: add what you need. */
typedef struct state {
    int n;
    const float *x;
    float *y;
} state;

static state *make_state(int n, const float *x, float *y)
{
    state *s = (state *)calloc(1, sizeof *s);
    s->n = n, s->x = x, s->y = y;
    return s;
}

/* ================================================================ stage 1: pageable */

/* TODO(stage 1): in create, cudaMalloc device arrays for x and y and copy the coefficients to
 * `coef`; in run, cudaMemcpy x to the device, launch(), cudaMemcpy y back; in destroy, cudaFree. */
extern "C" void *pageable_create(int n, const float *x, float *y, const float *c)
{
    (void)c;
    return make_state(n, x, y);
}
extern "C" void pageable_run(void *p) { (void)p; }
extern "C" void pageable_destroy(void *p) { free(p); }

/* ================================================================ stage 2: pinned */

/* TODO(stage 2): stage 1, with x and y page-locked in create (cudaHostRegister) and unregistered
 * in destroy (cudaHostUnregister). */
extern "C" void *pinned_create(int n, const float *x, float *y, const float *c)
{
    (void)c;
    return make_state(n, x, y);
}
extern "C" void pinned_run(void *p) { (void)p; }
extern "C" void pinned_destroy(void *p) { free(p); }

/* ================================================================ stage 3: pipelined */

/* TODO(stage 3): in create, pin as in stage 2 and make `streams` streams (cudaStreamCreateWithFlags,
 * cudaStreamNonBlocking). In run, for each chunk j (elements n*j/chunks up to n*(j+1)/chunks, which
 * may be none) on stream j % streams: cudaMemcpyAsync in, launch, cudaMemcpyAsync out. Run may
 * return without waiting (the grader waits for the whole device after it); if you wait, do it in
 * run after the loop, not in a helper that stage 4 calls while capturing (no waiting in a capture). */
extern "C" void *pipelined_create(int n, int chunks, int streams, const float *x, float *y, const float *c)
{
    (void)chunks, (void)streams, (void)c;
    return make_state(n, x, y);
}
extern "C" void pipelined_run(void *p) { (void)p; }
extern "C" void pipelined_destroy(void *p) { free(p); }

/* ================================================================ stage 4: graph */

/* TODO(stage 4): in create, set up as in stage 3, then capture what stage 3's run queues:
 * cudaStreamBeginCapture on one stream, fork the others into the capture (cudaEventRecord there,
 * cudaStreamWaitEvent on each other stream), queue the chunks, join them back (an event recorded
 * on each other stream, waited on by the first), cudaStreamEndCapture, cudaGraphInstantiate. In run,
 * cudaGraphLaunch (waiting after it is allowed, as in stage 3). In destroy, also the graph, its
 * executable and the events. */
extern "C" void *graph_create(int n, int chunks, int streams, const float *x, float *y, const float *c)
{
    (void)chunks, (void)streams, (void)c;
    return make_state(n, x, y);
}
extern "C" void graph_run(void *p) { (void)p; }
extern "C" void graph_destroy(void *p) { free(p); }

/* ================================================================ stage 5: matvec */

/* y = A x in double, the matrix in host memory (the source's task 4). The kernel is given: a warp
 * a row, lanes along it, a shuffle sum. rows_launch runs it over `rows` rows of device A (n
 * doubles each, row-major), device x and device y, on stream s. */
static __global__ void rows_by_warp(int rows, int n, const double *__restrict__ A, const double *__restrict__ x,
                                    double *__restrict__ y)
{
    int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32, lane = threadIdx.x % 32;
    if (row >= rows) return;
    double sum = 0;
    for (int j = lane; j < n; j += 32) sum += A[(size_t)row * n + j] * x[j];
    for (int o = 16; o > 0; o /= 2) sum += __shfl_down_sync(0xffffffffu, sum, o);
    if (lane == 0) y[row] = sum;
}

[[maybe_unused]] static void rows_launch(int rows, int n, const double *A, const double *x, double *y, cudaStream_t s)
{
    if (rows > 0) rows_by_warp<<<(rows + 7) / 8, 256, 0, s>>>(rows, n, A, x, y);
}

/* TODO(stage 5): in create, cudaMalloc device A (m x n), x and y, pin the host A, x and y
 * (cudaHostRegister) and make your streams; choose the number of chunks (a few MiB of A each).
 * In run: copy x in; then for each chunk of rows (m*j/chunks up to m*(j+1)/chunks) on stream
 * j % streams: cudaMemcpyAsync its rows of A in, rows_launch, cudaMemcpyAsync its part of y out.
 * Every kernel needs x on the device first: copy it on one stream, record an event there and make
 * the other streams wait for it (cudaStreamWaitEvent). Wait for all streams before returning. In
 * destroy, release everything (the grader counts). */
extern "C" void *matvec_create(int m, int n, const double *A, const double *x, double *y)
{
    (void)m, (void)n, (void)A, (void)x, (void)y;
    return calloc(1, 1);
}
extern "C" void matvec_run(void *p) { (void)p; }
extern "C" void matvec_destroy(void *p) { free(p); }
