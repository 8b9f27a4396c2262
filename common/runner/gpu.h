/* gpu.h - the runner's side of a CUDA lab: timing and device copies of a problem's buffers.
 *
 * Stage adaptors of a GPU lab use gpu_setup/pre/post/teardown: fresh device buffers, poisoned,
 * inputs uploaded once; before each call the output is poisoned on the device (or, for C += A B,
 * its initial contents uploaded) and a varying input generated there; after a call the scorer
 * reads a digest and chosen elements on the device, or the whole output is downloaded; at the end
 * the inputs come back (or, where they were made on the device from a seed, their digests) so the
 * scorer can see they are unchanged. */
#ifndef GPU_H
#define GPU_H

#include "lab.h"

extern const lab_timer gpu_timer;

void gpu_setup(lab_call *c);
void gpu_pre(lab_call *c);
void gpu_post(lab_call *c);
void gpu_teardown(lab_call *c);
/* A timed call's varying input generated on the device; the output's digest and the values at
 * the scorer's positions read on the device (gpu_kernels.cu), so a timed call's results need no
 * copy of the whole output. */
void gpu_vary(lab_call *c, int buf); /* from the seed in the secret cell */
uint64_t gpu_digest(lab_call *c, int buf, uint64_t key);
void gpu_gather(lab_call *c, const uint64_t *at, size_t n, void *dst);
/* The device copy of buffer i (valid between setup and teardown). */
void *gpu_buf(const lab_call *c, int i);
/* 1 while the timer (gpu_kernels.cu) launches its own kernel around a call: a lab that traces the
 * call's launches (lab 05's runner.c) leaves that one out. */
extern int wb_harness_launch;
/* The longest the timer holds the device while the host queues a call (gpu_kernels.cu). */
void wb_gpu_timer_hold(unsigned long long ns);

#endif
