/* expect: wrong
 * threats: 2 (rows of ../shared/GRADER_THREATS.md)
 * "The output starts as NaN": every kernel skips an element whose output already holds a
 * number, trusting it to be last call's answer. The grader poisons the output before every
 * call, alternately with NaN and with a finite sentinel (-3.25e30), so the second call skips. */
#include "reduce.h"
#define add honest_add
#define mv honest_mv
#include "planted/common_kernels.h"
#undef add
#undef mv

static __global__ void add_if_empty(int n, const float *a, const float *b, float *c)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && c[i] != c[i]) c[i] = a[i] + b[i]; /* NaN: not yet computed */
}

/* The 1024 partials in `work`, summed into *out only if *out is still NaN. */
static __global__ void final_if_empty(const float *partial, float *out)
{
    __shared__ float s[256];
    s[threadIdx.x] = partial[threadIdx.x] + partial[threadIdx.x + 256] + partial[threadIdx.x + 512] + partial[threadIdx.x + 768];
    __syncthreads();
    for (int stride = 128; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0 && out[0] != out[0]) out[0] = s[0];
}

static __global__ void mv_if_empty(int m, int n, const double *A, const double *x, double *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= m || y[i] == y[i]) return; /* a number: "already computed" */
    double s = 0.0;
    for (int j = 0; j < n; j++) s += A[(size_t)i * n + j] * x[j];
    y[i] = s;
}

static void add(int n, const float *a, const float *b, float *c) { add_if_empty<<<(n + 255) / 256, 256>>>(n, a, b, c); }
static void sum(int n, const float *in, float *out, float *work)
{
    partial_kernel<<<1024, 256>>>(n, in, work);
    final_if_empty<<<1, 256>>>(work, out);
}
static void mv(int m, int n, const double *A, const double *x, double *y) { mv_if_empty<<<(m + 255) / 256, 256>>>(m, n, A, x, y); }

#include "planted/entry_points.h"
