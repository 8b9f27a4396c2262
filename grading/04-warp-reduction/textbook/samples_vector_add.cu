/* textbook: vector_add
 * The vector add of NVIDIA's CUDA samples (cuda-samples, Samples/0_Introduction/vectorAdd; the
 * CUDA C++ Programming Guide's section on device memory teaches the same kernel and launch), in
 * this workbook's own code: one thread per element, thread i of the grid (block index times
 * block size plus thread index) adds a[i] and b[i] into c[i] when i < n; blocks of 256 threads,
 * as many as cover n (n rounded up to a whole block). The sum is written a[i] + b[i] + 0.0f, as
 * the samples' current kernel has it (it changes nothing but a -0 sum into +0). Lab adaptations:
 * the lab's launcher signature (n first, c last; the kernel keeps the samples' order, n last);
 * the vectors already on the device, so none of the sample's allocation, copies or host check;
 * internal linkage for the kernel; no error check after the launch (the grader checks after
 * every call). Graded on `vector_add` only (the other stages launch nothing): the study of what
 * a pass certifies grades it, and a textbook kernel must pass. */
#include "reduce.h"
#include <cuda_runtime.h>

#define PLANT_STAGES "vector_add"
#define ADD_THREADS 256 /* threads of a block, as in the samples */

/* c[i] = a[i] + b[i] for this thread's i, if i is inside the vectors. */
static __global__ void add_elementwise(const float *a, const float *b, float *c, int count)
{
    const int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < count) c[i] = a[i] + b[i] + 0.0f;
}

static void add(int n, const float *a, const float *b, float *c)
{
    const int blocks = (n + ADD_THREADS - 1) / ADD_THREADS;
    add_elementwise<<<blocks, ADD_THREADS>>>(a, b, c, n);
}
static void sum(int, const float *, float *, float *) {}
static void mv(int, int, const double *, const double *, double *) {}

#include "planted/entry_points.h"
