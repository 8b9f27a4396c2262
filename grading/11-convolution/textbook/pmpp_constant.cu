/* textbook: constant
 * Kirk and Hwu, Programming Massively Parallel Processors (4th ed., 2022), chapter 7, Fig. 7.9,
 * convolution_2D_const_mem_kernel, with the filter declared and copied as in section 7.3
 * (__constant__ float F[...], cudaMemcpyToSymbol): one output a thread, Pvalue summed over the
 * (2r + 1)^2 taps, every tap tested against the image (ghost cells skipped, i.e. zero), the input
 * read from global memory and the filter from __constant__ memory; blocks of 16 x 16 threads (the
 * book gives no launch for this kernel; 16 x 16 is its usual 2D block for images, chapter 3).
 * Added for the lab's interface: the book's F[2*FILTER_RADIUS+1][2*FILTER_RADIUS+1], sized at
 * compile time, becomes a flat F[CONV_MAX_K * CONV_MAX_K] indexed fRow * (2r + 1) + fCol, since
 * K (3 to 15) is known only at run time; r = K / 2; the filter copied device to device (the lab
 * passes a device pointer); the grid rounded up and the store tested against the image (the
 * book's kernel stores unconditionally); width = n, height = m; N const. Graded on `constant`
 * only: the other stages are stubs. */
#include "conv.h"

#include <cuda_runtime.h>

static __constant__ float F[CONV_MAX_K * CONV_MAX_K];

static __global__ void convolution_2D_const_mem_kernel(const float *N, float *P, int r, int width, int height)
{
    int outCol = blockIdx.x * blockDim.x + threadIdx.x;
    int outRow = blockIdx.y * blockDim.y + threadIdx.y;
    float Pvalue = 0.0f;
    for (int fRow = 0; fRow < 2 * r + 1; fRow++) {
        for (int fCol = 0; fCol < 2 * r + 1; fCol++) {
            int inRow = outRow - r + fRow;
            int inCol = outCol - r + fCol;
            if (inRow >= 0 && inRow < height && inCol >= 0 && inCol < width) {
                Pvalue += F[fRow * (2 * r + 1) + fCol] * N[inRow * width + inCol];
            }
        }
    }
    if (outRow < height && outCol < width) P[outRow * width + outCol] = Pvalue;
}

extern "C" void conv_naive(int m, int n, int K, const float *in, const float *filter, float *out)
{
    (void)m, (void)n, (void)K, (void)in, (void)filter, (void)out;
}

extern "C" void conv_constant(int m, int n, int K, const float *in, const float *filter, float *out)
{
    cudaMemcpyToSymbol(F, filter, K * K * sizeof(float), 0, cudaMemcpyDeviceToDevice);
    dim3 dimBlock(16, 16, 1);
    dim3 dimGrid((n + 15) / 16, (m + 15) / 16, 1);
    convolution_2D_const_mem_kernel<<<dimGrid, dimBlock>>>(in, out, K / 2, n, m);
}

extern "C" void conv_tiled(int m, int n, int K, const float *in, const float *filter, float *out)
{
    (void)m, (void)n, (void)K, (void)in, (void)filter, (void)out;
}

extern "C" void conv_coarsened(int m, int n, int K, const float *in, const float *filter, float *out)
{
    (void)m, (void)n, (void)K, (void)in, (void)filter, (void)out;
}
