/* reduce.cu - lab 04: your CUDA kernels. This is the one file you edit for this lab.
 *
 * Read handouts/04-warp-reduction.md first. The prototypes are in grading/04-warp-reduction/reduce.h
 * (do not edit it). Grade with:  make grade LAB=04   (on a machine with an NVIDIA GPU)
 *
 * Rules the grader enforces: every pointer you get is already on the device; launch your kernels
 * on the default stream and return (the grader synchronises and times); make your kernels and
 * helpers `static` (only the functions of reduce.h may be global); no cudaMalloc or cudaMemcpy:
 * use the `work` buffer the reductions get. */
#include "reduce.h"

#include <cuda_runtime.h>

/* ---------------------------------------------------------------- stage 1: vector add */

/* TODO(stage 1): a kernel in which thread i (blockIdx.x * blockDim.x + threadIdx.x) computes
 * c[i] = a[i] + b[i] if i < n, and a launch with enough blocks of, say, 256 threads to cover n. */
extern "C" void vector_add(int n, const float *a, const float *b, float *c)
{
    (void)n, (void)a, (void)b, (void)c;
}

/* ---------------------------------------------------------------- stages 2-6: *out = sum of in[0..n) */

/* TODO(stage 2): a block loads its 256 elements into shared memory, then for stride = 1, 2, 4 ...
 * threads with tid % (2 * stride) == 0 add s[tid + stride] into s[tid], with __syncthreads()
 * between steps; thread 0 writes the block's sum to work. Launch again on the partial sums until
 * one block is left, and let it write *out. */
extern "C" void reduce_interleaved(int n, const float *in, float *out, float *work)
{
    (void)n, (void)in, (void)out, (void)work;
}

/* TODO(stage 3): the same tree with index = 2 * stride * tid: contiguous threads do the work. */
extern "C" void reduce_strided(int n, const float *in, float *out, float *work)
{
    (void)n, (void)in, (void)out, (void)work;
}

/* TODO(stage 4): sequential addressing: for stride = blockDim.x / 2 down to 1, tid < stride adds
 * s[tid + stride]. */
extern "C" void reduce_sequential(int n, const float *in, float *out, float *work)
{
    (void)n, (void)in, (void)out, (void)work;
}

/* TODO(stage 5): sum within each warp with __shfl_down_sync, then across the block's warps
 * through a small shared array. */
extern "C" void reduce_shuffle(int n, const float *in, float *out, float *work)
{
    (void)n, (void)in, (void)out, (void)work;
}

/* TODO(stage 6): a few blocks per multiprocessor, each thread summing float4 loads in a
 * grid-stride loop; one partial per block in work; then one block sums the partials. Mind
 * n % 4. */
extern "C" void reduce_vectorized(int n, const float *in, float *out, float *work)
{
    (void)n, (void)in, (void)out, (void)work;
}

/* ---------------------------------------------------------------- stages 7-9: y = A x in double */

/* TODO(stage 7): one thread per row i: y[i] = sum over j of A[i * n + j] * x[j]. */
extern "C" void matvec_thread(int m, int n, const double *A, const double *x, double *y)
{
    (void)m, (void)n, (void)A, (void)x, (void)y;
}

/* TODO(stage 8): one warp per row: lane l sums j = l, l + 32, ...; then a warp shuffle sum. */
extern "C" void matvec_warp(int m, int n, const double *A, const double *x, double *y)
{
    (void)m, (void)n, (void)A, (void)x, (void)y;
}

/* TODO(stage 9): one block of several warps per row, the warps' sums combined in shared memory. */
extern "C" void matvec_block(int m, int n, const double *A, const double *x, double *y)
{
    (void)m, (void)n, (void)A, (void)x, (void)y;
}
