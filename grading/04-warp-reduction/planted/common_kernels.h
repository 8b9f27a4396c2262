/* common_kernels.h - honest kernels the planted lab-04 submissions share, so that each planted
 * file differs from a correct submission only in its planted behaviour. */
#include <cuda_runtime.h>

static __global__ void add_kernel(int n, const float *a, const float *b, float *c)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

/* One partial per block of a grid-stride sum; then one block sums the partials into *out. */
static __global__ void partial_kernel(int n, const float *in, float *partial)
{
    __shared__ float s[256];
    float v = 0.0f;
    for (long i = blockIdx.x * 256L + threadIdx.x; i < n; i += 256L * gridDim.x) v += in[i];
    s[threadIdx.x] = v;
    __syncthreads();
    for (int stride = 128; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) partial[blockIdx.x] = s[0];
}

static __global__ void mv_kernel(int m, int n, const double *A, const double *x, double *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= m) return;
    double s = 0.0;
    for (int j = 0; j < n; j++) s += A[(size_t)i * n + j] * x[j];
    y[i] = s;
}

static void add(int n, const float *a, const float *b, float *c) { add_kernel<<<(n + 255) / 256, 256>>>(n, a, b, c); }
static void mv(int m, int n, const double *A, const double *x, double *y) { mv_kernel<<<(m + 255) / 256, 256>>>(m, n, A, x, y); }
/* 1024 partials (work holds at least 1024 floats), then their sum: any n >= 1. */
static void honest_sum(int n, const float *in, float *out, float *work)
{
    partial_kernel<<<1024, 256>>>(n, in, work);
    partial_kernel<<<1, 256>>>(1024, work, out);
}
