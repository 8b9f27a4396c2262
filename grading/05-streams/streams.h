/* streams.h - lab 05: the functions you write in labs/05-streams/streams.cu. Do not edit.
 *
 * The data starts and ends in host memory. Stages 1 to 4 compute, for 0 <= i < n,
 *
 *     y[i] = c[0] + c[1] x[i] + c[2] x[i]^2 + ... + c[POLY_DEGREE] x[i]^POLY_DEGREE
 *
 * in float (Horner's rule: POLY_DEGREE fused multiply-adds an element), where x and y are host
 * arrays of n floats and c holds POLY_DEGREE + 1 coefficients, also in host memory. The degree is
 * fixed so that on an H100 the kernel takes about as long as copying x in or y out over PCIe: the
 * lab is about hiding those copies behind the computation.
 *
 * Each stage has three functions:
 *   <stage>_create   untimed, once: allocate device memory, pin host memory, create streams,
 *                    copy the coefficients, capture a graph ... and return your own state;
 *   <stage>_run      timed, called many times with new values in x: y must be complete (on the
 *                    host) when the grader next looks, which is after a device synchronisation;
 *   <stage>_destroy  untimed: release everything create made. The grader counts device and pinned
 *                    allocations, registrations, streams, events and graphs: a leak fails the stage.
 * x and y are the same two arrays in every call between create and destroy; their contents change.
 *
 * Stage 5 computes y = A x in double: A is m x n, row-major (A[i * n + j]), x has n elements and
 * y m, all three in host memory; A's contents (and x's) change between calls.
 */
#ifndef STREAMS_H
#define STREAMS_H

#define POLY_DEGREE 2048 /* lab.mk hands it to common/probes/gpu_probe.cu, which unrolls its kernel at it */

#ifdef __cplusplus
extern "C" {
#endif

/* Stage 1: pageable memory, one stream: copy x in, compute, copy y out. */
void *pageable_create(int n, const float *x, float *y, const float *c);
void pageable_run(void *state);
void pageable_destroy(void *state);

/* Stage 2: the same, with x and y page-locked (cudaHostRegister) so copies run at full speed. */
void *pinned_create(int n, const float *x, float *y, const float *c);
void pinned_run(void *state);
void pinned_destroy(void *state);

/* Stage 3: x split into `chunks` pieces (as equal as possible; n need not divide evenly, and
 * chunks may exceed n), spread round-robin over `streams` streams, so that the copy in of one
 * chunk, the kernel of another and the copy out of a third overlap. */
void *pipelined_create(int n, int chunks, int streams, const float *x, float *y, const float *c);
void pipelined_run(void *state);
void pipelined_destroy(void *state);

/* Stage 4: the stage-3 pipeline captured once as a CUDA graph in create, replayed by run. */
void *graph_create(int n, int chunks, int streams, const float *x, float *y, const float *c);
void graph_run(void *state);
void graph_destroy(void *state);

/* Stage 5: y = A x with A in host memory: A's rows in chunks over streams (chunks and streams your
 * choice), so that each chunk's kernel runs while the next chunk is copied in. */
void *matvec_create(int m, int n, const double *A, const double *x, double *y);
void matvec_run(void *state);
void matvec_destroy(void *state);

#ifdef __cplusplus
}
#endif

#endif
