/* expect: wrong
 * threats: 23, 24 (rows of ../shared/GRADER_THREATS.md)
 * Every grid is sized n / 256, rounded down: the last n % 256 elements (rows) are never
 * computed, and below 256 nothing is (vector add and matvec leave their poisoned outputs, the
 * sum comes out 0). Right only when the size is a multiple of 256. */
#include "reduce.h"
#define add honest_add
#define mv honest_mv
#include "planted/common_kernels.h"
#undef add
#undef mv

static __global__ void zero_f(float *p) { *p = 0.0f; }

/* Like partial_kernel, one block per 256 inputs, each adding its partial with atomicAdd. */
static __global__ void block_sums(const float *in, float *out)
{
    __shared__ float s[256];
    s[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x]; /* no bounds test: only whole blocks */
    __syncthreads();
    for (int stride = 128; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(out, s[0]);
}

static void add(int n, const float *a, const float *b, float *c)
{
    if (n / 256 > 0) add_kernel<<<n / 256, 256>>>(n, a, b, c);
}
static void sum(int n, const float *in, float *out, float *work)
{
    (void)work;
    zero_f<<<1, 1>>>(out);
    if (n / 256 > 0) block_sums<<<n / 256, 256>>>(in, out);
}
static void mv(int m, int n, const double *A, const double *x, double *y)
{
    if (m / 256 > 0) mv_kernel<<<m / 256, 256>>>(m, n, A, x, y);
}

#include "planted/entry_points.h"
