/* common.h - what lab 05's planted submissions share: the kernel, a state, and plain versions of
 * the four stages. A plant defines OWN_<STAGE> (OWN_PIPELINED ...) before including this and then
 * writes that stage's three functions itself, with the one mistake it is about. */
#include "streams.h"

#include <cuda_runtime.h>
#include <stdlib.h>

static __constant__ float coef[POLY_DEGREE + 1];

/* As fast as the reference's (its loop unrolled whole: the coefficients' indexes known when
 * compiled), so that a plant is slow only for the mistake it is about; unrolled by 8 it took 13x
 * the reference's time on an H100 and every plain stage read a few % of the ideal. */
static __global__ void horner(int n, const float *__restrict__ x, float *__restrict__ y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i], acc = coef[POLY_DEGREE];
#pragma unroll
    for (int k = POLY_DEGREE - 1; k >= 0; k--) acc = fmaf(acc, v, coef[k]);
    y[i] = acc;
}

typedef struct plant {
    int n, chunks, nstreams;
    const float *x;
    float *y, *dx, *dy;
    cudaStream_t st[64];
} plant;

/* Device arrays, the coefficients, pinned host arrays and `streams` streams (0: none). */
static plant *setup(int n, int chunks, int streams, const float *x, float *y, const float *c, int pin)
{
    plant *p = (plant *)calloc(1, sizeof *p);
    p->n = n, p->chunks = chunks, p->nstreams = streams, p->x = x, p->y = y;
    cudaMalloc(&p->dx, (size_t)n * 4);
    cudaMalloc(&p->dy, (size_t)n * 4);
    cudaMemcpyToSymbol(coef, c, 4 * (POLY_DEGREE + 1));
    if (pin) cudaHostRegister((void *)x, (size_t)n * 4, 0), cudaHostRegister(y, (size_t)n * 4, 0);
    for (int i = 0; i < streams; i++) cudaStreamCreateWithFlags(&p->st[i], cudaStreamNonBlocking);
    return p;
}

static void teardown(plant *p, int pin)
{
    for (int i = 0; i < p->nstreams; i++) cudaStreamDestroy(p->st[i]);
    if (pin) cudaHostUnregister((void *)p->x), cudaHostUnregister(p->y);
    cudaFree(p->dx);
    cudaFree(p->dy);
    free(p);
}

/* Elements [lo, hi) through the GPU on stream s. */
static void piece(plant *p, size_t lo, size_t hi, cudaStream_t s)
{
    if (hi <= lo) return;
    cudaMemcpyAsync(p->dx + lo, p->x + lo, (hi - lo) * 4, cudaMemcpyHostToDevice, s);
    horner<<<(unsigned)((hi - lo + 255) / 256), 256, 0, s>>>((int)(hi - lo), p->dx + lo, p->dy + lo);
    cudaMemcpyAsync(p->y + lo, p->dy + lo, (hi - lo) * 4, cudaMemcpyDeviceToHost, s);
}

static void pipeline(plant *p)
{
    for (int j = 0; j < p->chunks; j++)
        piece(p, (size_t)p->n * j / p->chunks, (size_t)p->n * (j + 1) / p->chunks, p->st[j % p->nstreams]);
    cudaDeviceSynchronize();
}

#ifndef OWN_PAGEABLE
extern "C" void *pageable_create(int n, const float *x, float *y, const float *c) { return setup(n, 1, 0, x, y, c, 0); }
extern "C" void pageable_run(void *p) { piece((plant *)p, 0, ((plant *)p)->n, 0), cudaDeviceSynchronize(); }
extern "C" void pageable_destroy(void *p) { teardown((plant *)p, 0); }
#endif
#ifndef OWN_PINNED
extern "C" void *pinned_create(int n, const float *x, float *y, const float *c) { return setup(n, 1, 0, x, y, c, 1); }
extern "C" void pinned_run(void *p) { piece((plant *)p, 0, ((plant *)p)->n, 0), cudaDeviceSynchronize(); }
extern "C" void pinned_destroy(void *p) { teardown((plant *)p, 1); }
#endif
#ifndef OWN_PIPELINED
extern "C" void *pipelined_create(int n, int chunks, int streams, const float *x, float *y, const float *c)
{
    return setup(n, chunks, streams, x, y, c, 1);
}
extern "C" void pipelined_run(void *p) { pipeline((plant *)p); }
extern "C" void pipelined_destroy(void *p) { teardown((plant *)p, 1); }
#endif
#ifndef OWN_GRAPH /* not a graph: the plants are about the other stages */
extern "C" void *graph_create(int n, int chunks, int streams, const float *x, float *y, const float *c)
{
    return setup(n, chunks, streams, x, y, c, 1);
}
extern "C" void graph_run(void *p) { pipeline((plant *)p); }
extern "C" void graph_destroy(void *p) { teardown((plant *)p, 1); }
#endif

/* Stage 5 done plainly (a plant about it defines OWN_MATVEC): rows in 8 chunks over 4 streams, x
 * copied first and waited for on the default stream (these streams are non-blocking, so the wait is
 * the host's: cudaMemcpy from pinned memory returns when it is done). */
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

typedef struct mv_plant {
    int m, n, nstreams;
    const double *A, *x;
    double *y, *dA, *dx, *dy;
    cudaStream_t st[4];
} mv_plant;

static mv_plant *mv_setup(int m, int n, const double *A, const double *x, double *y, int streams)
{
    mv_plant *p = (mv_plant *)calloc(1, sizeof *p);
    p->m = m, p->n = n, p->A = A, p->x = x, p->y = y, p->nstreams = streams;
    cudaMalloc(&p->dA, (size_t)m * n * 8);
    cudaMalloc(&p->dx, (size_t)n * 8);
    cudaMalloc(&p->dy, (size_t)m * 8);
    cudaHostRegister((void *)A, (size_t)m * n * 8, 0), cudaHostRegister((void *)x, (size_t)n * 8, 0);
    cudaHostRegister(y, (size_t)m * 8, 0);
    for (int i = 0; i < streams; i++) cudaStreamCreateWithFlags(&p->st[i], cudaStreamNonBlocking);
    return p;
}

static void mv_teardown(mv_plant *p)
{
    for (int i = 0; i < p->nstreams; i++) cudaStreamDestroy(p->st[i]);
    cudaHostUnregister((void *)p->A), cudaHostUnregister((void *)p->x), cudaHostUnregister(p->y);
    cudaFree(p->dA), cudaFree(p->dx), cudaFree(p->dy);
    free(p);
}

/* Rows [lo, hi) on stream s: copy in, kernel, copy out. */
static void mv_rows(mv_plant *p, size_t lo, size_t hi, cudaStream_t s)
{
    if (hi <= lo) return;
    size_t off = lo * p->n;
    cudaMemcpyAsync(p->dA + off, p->A + off, (hi - lo) * p->n * 8, cudaMemcpyHostToDevice, s);
    rows_by_warp<<<(unsigned)((hi - lo + 7) / 8), 256, 0, s>>>((int)(hi - lo), p->n, p->dA + off, p->dx, p->dy + lo);
    cudaMemcpyAsync(p->y + lo, p->dy + lo, (hi - lo) * 8, cudaMemcpyDeviceToHost, s);
}

#ifndef OWN_MATVEC
extern "C" void *matvec_create(int m, int n, const double *A, const double *x, double *y)
{
    return mv_setup(m, n, A, x, y, 4);
}
extern "C" void matvec_run(void *q)
{
    mv_plant *p = (mv_plant *)q;
    cudaMemcpy(p->dx, p->x, (size_t)p->n * 8, cudaMemcpyHostToDevice);
    for (int j = 0; j < 8; j++) mv_rows(p, (size_t)p->m * j / 8, (size_t)p->m * (j + 1) / 8, p->st[j % 4]);
    cudaDeviceSynchronize();
}
extern "C" void matvec_destroy(void *p) { mv_teardown((mv_plant *)p); }
#endif
