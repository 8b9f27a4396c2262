/* conv.cu - lab 11: your CUDA kernels. This is the one file you edit for this lab.
 *
 * Read handouts/11-convolution.md first. The prototypes are in grading/11-convolution/conv.h (do
 * not edit it). Grade with:  make grade LAB=11   (on a machine with an NVIDIA GPU)
 *
 * in and out are m x n images (pixel (i, j) at in[i * n + j]), filter is K x K (tap (a, b) at
 * filter[a * K + b]), K odd from 3 to 15, r = K / 2:
 *     out[i][j] = sum over a, b < K of filter[a][b] * in[i + a - r][j + b - r]
 * with pixels outside the image taken as 0; any m and n from 1 up. Rules the grader enforces: all
 * three pointers are already on the device; launch your kernels on the default stream and return
 * (the grader synchronises and times); make your kernels, helpers and __constant__ arrays
 * `static`, or put them in an anonymous `namespace { }` (only the functions of conv.h may be
 * global); no cudaMalloc, cudaMemcpy or cudaMemset: the one copy allowed is cudaMemcpyToSymbol,
 * for the filter. */
#include "conv.h"

#include <cuda_runtime.h>

/* ---------------------------------------------------------------- stage 1: naive */

/* TODO(stage 1): one thread per output. Blocks of 32 x 8 threads, a grid of ceil(n / 32) x
 * ceil(m / 8) blocks; thread (blockIdx.x * 32 + threadIdx.x, blockIdx.y * 8 + threadIdx.y) owns
 * out[i][j] for column j and row i, if they are inside the image. Sum filter[a * K + b] times the
 * pixel (i + a - r, j + b - r) over the K x K taps, skipping the taps whose pixel lies outside the
 * image (that is the zero padding); write the sum once. */
extern "C" void conv_naive(int m, int n, int K, const float *in, const float *filter, float *out)
{
    (void)m, (void)n, (void)K, (void)in, (void)filter, (void)out;
}

/* ---------------------------------------------------------------- stage 2: constant */

/* TODO(stage 2): stage 1 with the filter in constant memory. Declare, outside any function,
 *     static __constant__ float c_filter[CONV_MAX_K * CONV_MAX_K];
 * and before the launch copy the filter there; it is already on the device, so the copy is
 * device to device:
 *     cudaMemcpyToSymbol(c_filter, filter, K * K * sizeof(float), 0, cudaMemcpyDeviceToDevice);
 * Then read c_filter[a * K + b] in the kernel. Make K a template parameter of the kernel and
 * unroll its loops (#pragma unroll), one instance per odd K, chosen on the host. */
extern "C" void conv_constant(int m, int n, int K, const float *in, const float *filter, float *out)
{
    (void)m, (void)n, (void)K, (void)in, (void)filter, (void)out;
}

/* ---------------------------------------------------------------- stage 3: tiled */

/* TODO(stage 3): a block of 32 x 8 threads computes an 8 x 32 tile of outputs. First the block
 * loads the (8 + K - 1) x (32 + K - 1) pixels those outputs need (the tile and a halo of r pixels
 * on every side) into a __shared__ array, 0 for the pixels outside the image, each warp reading
 * consecutive pixels of a row; then __syncthreads(); then each thread sums its K x K window from
 * shared memory, with no test of the edges: the zeros are the padding. A thread whose output lies
 * outside the image still helps load, and must reach the barrier. */
extern "C" void conv_tiled(int m, int n, int K, const float *in, const float *filter, float *out)
{
    (void)m, (void)n, (void)K, (void)in, (void)filter, (void)out;
}

/* ---------------------------------------------------------------- stage 4: coarsened */

/* TODO(stage 4): each thread computes C adjacent outputs of a row (C = 4, say), so a warp covers
 * 32 * C columns. For each filter row, read the C + K - 1 pixels of the thread's window from the
 * shared tile into registers (a float array whose size is a compile-time constant, loops fully
 * unrolled) once, and use each in up to C products. Stage 3's tile, wider; keep the reads of
 * shared memory free of bank conflicts (float4 reads of 4 adjacent pixels are). */
extern "C" void conv_coarsened(int m, int n, int K, const float *in, const float *filter, float *out)
{
    (void)m, (void)n, (void)K, (void)in, (void)filter, (void)out;
}
