/* expect: timeout in vector_add
 * threats: 17 (rows of ../shared/GRADER_THREATS.md)
 * A kernel that never ends: it waits for a flag nothing sets. The grader's time limit kills the
 * runner, the driver ends the kernel with its context, and grading goes on. (One stage: a hang
 * costs the plant the whole time limit in each stage it is in.) */
#define PLANT_STAGES "vector_add"
#include "reduce.h"
#define add honest_add
#include "planted/common_kernels.h"
#undef add

static __device__ int released; /* never set */

static __global__ void wait_then_add(int n, const float *a, const float *b, float *c)
{
    volatile int *flag = &released; /* volatile: every test reloads it, so the loop stays */
    while (*flag == 0) {
    }
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

static void add(int n, const float *a, const float *b, float *c) { wait_then_add<<<(n + 255) / 256, 256>>>(n, a, b, c); }
static void sum(int n, const float *in, float *out, float *work) { honest_sum(n, in, out, work); }

#include "planted/entry_points.h"
