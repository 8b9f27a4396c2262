/* expect: out-of-bounds
 * threats: 16 (rows of ../shared/GRADER_THREATS.md)
 * Every stage writes its whole last block, past the end of its output: the device guard zones
 * the grader puts around every buffer show it. */
#include "reduce.h"

static __global__ void sloppy_sum(int n, const float *in, float *out)
{
    if (threadIdx.x == 0) {
        float v = 0.0f;
        for (int i = 0; i < n; i++) v += in[i];
        out[0] = v;
    }
    if (threadIdx.x > 0) out[threadIdx.x + 1023] = 0.0f; /* well past a one-float output */
}
static __global__ void sloppy_add(int n, const float *a, const float *b, float *c)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x; /* no i < n test: the last block runs over */
    c[i] = i < n ? a[i] + b[i] : 0.0f;
}
static __global__ void sloppy_mv(int m, int n, const double *A, const double *x, double *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    double s = 0.0;
    for (int j = 0; i < m && j < n; j++) s += A[(size_t)i * n + j] * x[j];
    y[i] = s;
}

static void sum(int n, const float *in, float *out, float *work)
{
    (void)work;
    sloppy_sum<<<1, 64>>>(n, in, out);
}
#define add add_unused
#define mv mv_unused
#include "planted/common_kernels.h"
#undef add
#undef mv
static void add(int n, const float *a, const float *b, float *c) { sloppy_add<<<n / 256 + 2, 256>>>(n, a, b, c); }
static void mv(int m, int n, const double *A, const double *x, double *y) { sloppy_mv<<<m / 256 + 2, 256>>>(m, n, A, x, y); }

#include "planted/entry_points.h"
