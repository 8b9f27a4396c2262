/* expect: input-modified
 * threats: 15 (rows of ../shared/GRADER_THREATS.md)
 * A correct convolution followed by a second kernel that rescales the image in place (casting the
 * const away), as if in were the caller's to overwrite once read. Every output is right; the
 * grader compares the inputs with its own copy after every call. */
#include "conv.h"

#include <cuda_runtime.h>

#define PLANT_CORRECT /* plant_correct, one thread an output */
#include "planted/common_kernels.h"

static __global__ void halve(int m, int n, float *in)
{
    int j = blockIdx.x * 32 + threadIdx.x, i = blockIdx.y * 8 + threadIdx.y;
    if (i < m && j < n) in[(size_t)i * n + j] *= 0.5f;
}

static void cv(int m, int n, int K, const float *in, const float *filter, float *out)
{
    plant_load_filter(K, filter);
    plant_correct<<<plant_grid(m, n), plant_block>>>(m, n, K, in, out);
    halve<<<plant_grid(m, n), plant_block>>>(m, n, const_cast<float *>(in));
}

#include "planted/entry_points.h"
