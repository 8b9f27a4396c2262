/* expect: wrong
 * threats: 4 (rows of ../shared/GRADER_THREATS.md)
 * Copies in to out at copy bandwidth and transposes nothing. Right for a single row or column
 * (its transpose lies in memory just as it does) and for 1 x 1; wrong for every matrix. */
#include "transpose.h"

static __global__ void copy(size_t count, const float *in, float *out)
{
    for (size_t k = blockIdx.x * (size_t)blockDim.x + threadIdx.x; k < count; k += (size_t)gridDim.x * blockDim.x)
        out[k] = in[k];
}

static void tr(int m, int n, const float *in, float *out) { copy<<<1024, 256>>>((size_t)m * n, in, out); }

#include "planted/entry_points.h"
