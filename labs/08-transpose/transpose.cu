/* transpose.cu - lab 08: your CUDA kernels. This is the one file you edit for this lab.
 *
 * Read handouts/08-transpose.md first. The prototypes are in grading/08-transpose/transpose.h
 * (do not edit it). Grade with:  make grade LAB=08   (on a machine with an NVIDIA GPU)
 *
 * in is m x n (element (i, j) at in[i * n + j]), out is n x m (element (j, i) at out[j * m + i]);
 * any m and n from 1 up. Rules the grader enforces: both pointers are already on the device;
 * launch your kernels on the default stream and return (the grader synchronises and times); make
 * your kernels and helpers `static` (only the functions of transpose.h may be global); no
 * cudaMalloc or cudaMemcpy. */
#include "transpose.h"

#include <cuda_runtime.h>

/* ---------------------------------------------------------------- stage 1: naive */

/* TODO(stage 1): a kernel in which thread (x, y) of the grid, x = blockIdx.x * blockDim.x +
 * threadIdx.x along the columns of in and y along its rows, copies in[y * n + x] to out[x * m + y]
 * when y < m and x < n. Launch blocks of 32 x 8 threads (dim3) over a grid that covers n columns
 * and m rows: (n + 31) / 32 blocks across, and enough down. */
extern "C" void transpose_naive(int m, int n, const float *in, float *out)
{
    (void)m, (void)n, (void)in, (void)out;
}

/* ---------------------------------------------------------------- stages 2-4: a tile in shared memory */

/* TODO(stage 2): each block of 32 x 8 threads owns a 32 x 32 tile: rows i0 = blockIdx.y * 32 ...,
 * columns j0 = blockIdx.x * 32 .... Thread (tx, ty) copies in[i0 + r][j0 + tx] into
 * tile[r][tx] for r = ty, ty + 8, ty + 16, ty + 24 (when inside the matrix); __syncthreads();
 * then writes tile[tx][r] to out[j0 + r][i0 + tx] for the same four r. Both the reads and the
 * writes of a warp are now along a row. */
extern "C" void transpose_tiled(int m, int n, const float *in, float *out)
{
    (void)m, (void)n, (void)in, (void)out;
}

/* TODO(stage 3): stage 2 with the tile declared [32][33]. */
extern "C" void transpose_padded(int m, int n, const float *in, float *out)
{
    (void)m, (void)n, (void)in, (void)out;
}

/* TODO(stage 4): stage 2's [32][32] tile, with element (r, c) stored at column c ^ r. */
extern "C" void transpose_swizzled(int m, int n, const float *in, float *out)
{
    (void)m, (void)n, (void)in, (void)out;
}

/* ---------------------------------------------------------------- stage 5: vector loads */

/* TODO(stage 5): more bytes per instruction. For example 256 threads a 32 x 32 tile, each thread
 * reading one float4 of a row of in (4 consecutive elements) and writing one float4 of a row of
 * out, where m and n are multiples of 4 (and the pointers 16-byte aligned); element by element
 * at the matrix's edges and for other sizes. Check which tile layout keeps the banks apart. */
extern "C" void transpose_vectorized(int m, int n, const float *in, float *out)
{
    (void)m, (void)n, (void)in, (void)out;
}
