/* expect: input-modified
 * threats: 15 (rows of ../shared/GRADER_THREATS.md)
 * A correct naive transpose that also zeroes each element of in once it has read it (casting the
 * const away), as if in were its own scratch space. Inputs are compared after every call. */
#include "transpose.h"

static __global__ void consume(int m, int n, float *in, float *out)
{
    int j = blockIdx.x * 32 + threadIdx.x;
    for (int i = blockIdx.y * 32 + threadIdx.y; i < blockIdx.y * 32 + 32; i += 8)
        if (i < m && j < n) {
            out[(size_t)j * m + i] = in[(size_t)i * n + j];
            in[(size_t)i * n + j] = 0.0f;
        }
}

static void tr(int m, int n, const float *in, float *out)
{
    consume<<<dim3((n + 31) / 32, (m + 31) / 32), dim3(32, 8)>>>(m, n, const_cast<float *>(in), out);
}

#include "planted/entry_points.h"
