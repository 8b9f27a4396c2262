/* softmax.cu - lab 09: your CUDA kernels. This is the one file you edit for this lab.
 *
 * Read handouts/09-softmax.md first. The prototypes are in grading/09-softmax/softmax.h (do not
 * edit it). Grade with:  make grade LAB=09   (on a machine with an NVIDIA GPU)
 *
 * Each row i of in (m x n, element (i, j) at in[i * n + j]) becomes
 * out[i][j] = exp(in[i][j] - M_i) / sum_k exp(in[i][k] - M_i), M_i the row's maximum; any m and n
 * from 1 up. Rules the grader enforces: both pointers are already on the device; launch your
 * kernels on the default stream and return (the grader synchronises and times); make your kernels
 * and helpers `static` (only the functions of softmax.h may be global); no cudaMalloc or
 * cudaMemcpy. */
#include "softmax.h"

#include <cfloat>
#include <cuda_runtime.h>

/* ---------------------------------------------------------------- stage 1: a block per row */

/* TODO(stage 1): launch m blocks of 256 threads; block i owns row i. Pass 1: each thread takes
 * the maximum of x[j] for j = threadIdx.x, + 256, ...; combine the 256 values in shared memory
 * (__syncthreads() between steps) so every thread knows M. Pass 2: the same for the sum of
 * expf(x[j] - M). Pass 3: write expf(x[j] - M) / sum. */
extern "C" void softmax_three_pass(int m, int n, const float *in, float *out)
{
    (void)m, (void)n, (void)in, (void)out;
}

/* ---------------------------------------------------------------- stage 2: a warp per row */

/* TODO(stage 2): warp w of the grid (global thread index / 32) owns row w: its 32 lanes stride
 * over the row, and __shfl_xor_sync(0xffffffff, v, d) for d = 16, 8, 4, 2, 1 combines their
 * values, every lane getting the result. Blocks of 256 threads hold 8 rows. */
extern "C" void softmax_warp(int m, int n, const float *in, float *out)
{
    (void)m, (void)n, (void)in, (void)out;
}

/* ---------------------------------------------------------------- stage 3: online */

/* TODO(stage 3): one read for the maximum and the sum together: keep (mx, s) with s the sum of
 * expf(x - mx) over what this lane has seen; a new x above mx rescales s by expf(mx - x) first.
 * Combine two lanes' pairs the same way. Then write the outputs. */
extern "C" void softmax_online(int m, int n, const float *in, float *out)
{
    (void)m, (void)n, (void)in, (void)out;
}

/* ---------------------------------------------------------------- stage 4: a row in registers */

/* TODO(stage 4): for n up to 1024, each lane loads its (at most 32) elements of the row into a
 * float array whose size is a compile-time constant (a template parameter), with fully unrolled
 * loops, so that it lives in registers: one read and one write of the row. Longer rows: your
 * stage 3. */
extern "C" void softmax_registers(int m, int n, const float *in, float *out)
{
    (void)m, (void)n, (void)in, (void)out;
}
