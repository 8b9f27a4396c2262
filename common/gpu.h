/* gpu.h - the runner's side of a CUDA lab: timing and device copies of a problem's buffers.
 *
 * Stage adaptors of a GPU lab use gpu_setup/pre/post/teardown: fresh device buffers, poisoned,
 * inputs uploaded once; before each call the (poisoned) output is uploaded; after each call it
 * is downloaded; at the end the inputs come back so the scorer can see they are unchanged. */
#ifndef GPU_H
#define GPU_H

#include "lab.h"

extern const lab_timer gpu_timer;

void gpu_setup(lab_call *c);
void gpu_pre(lab_call *c);
void gpu_post(lab_call *c);
void gpu_teardown(lab_call *c);
/* The device copy of buffer i (valid between setup and teardown). */
void *gpu_buf(const lab_call *c, int i);

#endif
