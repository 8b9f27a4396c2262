/* gpu_probe_poly.cu - the probe's fully unrolled polynomial kernels (gpu_probe_poly.h). */
#include "gpu_probe_poly.h"
#include "cuda_check.h"

#ifdef UNROLLED_DEGREE
__constant__ static float coef[UNROLLED_DEGREE + 1];

/* Fully unrolled: each coefficient becomes an operand of its multiply-add, as in the lab's own
 * kernel. The ideal must not be slower than what a student can write. */
__global__ static void horner_unrolled(int n, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i], acc = coef[UNROLLED_DEGREE];
#pragma unroll
    for (int k = UNROLLED_DEGREE - 1; k >= 0; k--) acc = fmaf(acc, v, coef[k]);
    y[i] = acc;
}

/* The same with ILP elements a thread, i, i + q, ... (q = n / ILP rounded up), their chains
 * interleaved: a kernel a student may write that beats one chain a thread. It is no part of the
 * ideal the stages are judged against (the lab is about the copies, not the kernel); only of the
 * bound above which a time is impossible. */
template <int ILP> __global__ static void horner_ilp(int n, const float *x, float *y)
{
    int q = (n + ILP - 1) / ILP, i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= q) return;
    float v[ILP], acc[ILP];
#pragma unroll
    for (int e = 0; e < ILP; e++) v[e] = i + e * q < n ? x[i + e * q] : 0.0f, acc[e] = coef[UNROLLED_DEGREE];
    /* unrolled by 64, not fully: each coefficient is loaded once for ILP chains, and the build stays
     * quick (fully unrolled, these two kernels doubled the probe's compile time) */
#pragma unroll 64
    for (int k = UNROLLED_DEGREE - 1; k >= 0; k--)
#pragma unroll
        for (int e = 0; e < ILP; e++) acc[e] = fmaf(acc[e], v[e], coef[k]);
#pragma unroll
    for (int e = 0; e < ILP; e++)
        if (i + e * q < n) y[i + e * q] = acc[e];
}

int poly_unrolled_degree(void) { return UNROLLED_DEGREE; }

void poly_set_coefficients(const float *c, int degree)
{
    if (degree == UNROLLED_DEGREE) CUDA_CHECK(cudaMemcpyToSymbol(coef, c, (UNROLLED_DEGREE + 1) * sizeof(float)));
}

void poly_unrolled(int ilp, int n, const float *x, float *y, cudaStream_t s)
{
    int q = (n + ilp - 1) / ilp, blocks = (q + 255) / 256;
    if (ilp == 4) horner_ilp<4><<<blocks, 256, 0, s>>>(n, x, y);
    else if (ilp == 2) horner_ilp<2><<<blocks, 256, 0, s>>>(n, x, y);
    else horner_unrolled<<<blocks, 256, 0, s>>>(n, x, y);
}
#else
int poly_unrolled_degree(void) { return -1; }
void poly_set_coefficients(const float *, int) {}
void poly_unrolled(int, int, const float *, float *, cudaStream_t) {}
#endif
