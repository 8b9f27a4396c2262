/* sanitize: memcheck in vector_add
 * The vector add without its bounds test: the grid is rounded up to whole blocks, so the threads of
 * the last block past n write past the end of c. Every other stage is correct. */
#include "reduce.h"
#include "planted/common_kernels.h"

static __global__ void add_unchecked(int n, const float *a, const float *b, float *c)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    c[i] = i < n ? a[i] + b[i] : 0.0f; /* the bug: no `if (i < n)` around the store */
}

#define add plant_add
static void plant_add(int n, const float *a, const float *b, float *c)
{
    add_unchecked<<<(n + 255) / 256, 256>>>(n, a, b, c);
}
#define sum honest_sum
#include "planted/entry_points.h"
