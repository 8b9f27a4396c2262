/* textbook: vectorized
 * The `vectorized` stage as J. Luitjens's two NVIDIA Developer Blog posts combine it: the 16-byte
 * vector loads of "CUDA Pro Tip: Increase Performance with Vectorized Memory Access" (2013: the
 * input viewed as an array of 4-wide vectors, walked by a grid-stride loop, the last n % 4
 * elements read one by one) on top of the shuffle reduction of "Faster Parallel Reductions on
 * Kepler" (2014), whose post's code (NVIDIA-developer-blog/code-samples,
 * posts/parallel_reduction_with_shfl) has such a vector-load variant. Written here in this
 * workbook's own code: each thread sums its float4s as (x + y) + (z + w) into one register, the
 * first n % 4 threads of the grid each add one of the trailing scalars, then the block sum of
 * textbook/shuffle_reduce.h stores one partial a block. Launch shape as in the post: blocks of
 * 512 threads, enough to give each thread at most one float4 per sweep but at most 1024 blocks,
 * then one block of 1024 threads over the partials. Lab adaptations: float/float4 data, the _sync
 * shuffle, the partials in `work`, internal linkage; and the grid never smaller than one block:
 * sized on n / 4 alone it would be empty for n < 4 (a failed launch, the tail never added), and
 * the lab tests n = 1. Graded on `vectorized` only (the other stages launch nothing): the study
 * of what a pass certifies grades it, and a technique-correct textbook kernel must pass. */
#include "reduce.h"
#include "textbook/shuffle_reduce.h"

#define PLANT_STAGES "vectorized"

/* part[blockIdx.x] = this block's share of src[0 .. count), read 16 bytes at a time. */
static __global__ void shfl_partial_sums_v4(const float *src, float *part, int count)
{
    const float4 *quads = reinterpret_cast<const float4 *>(src);
    const int nquads = count / 4;
    const int me = threadIdx.x + blockIdx.x * blockDim.x;
    float acc = 0;
    for (int q = me; q < nquads; q += gridDim.x * blockDim.x) {
        const float4 f = quads[q];
        const float lo = f.x + f.y, hi = f.z + f.w;
        acc += lo + hi;
    }
    /* The 0 to 3 floats after the last whole float4: global thread k adds the k-th of them. */
    if (me < count - nquads * 4) acc += src[nquads * 4 + me];

    acc = shfl_block_sum(acc);
    if (threadIdx.x == 0) part[blockIdx.x] = acc;
}

/* Two passes: up to 1024 partials of 512-thread blocks into work, then one 1024-thread block. */
static void sum(int n, const float *in, float *out, float *work)
{
    const int block = 512;
    int grid = (n / 4 + block - 1) / block;
    if (grid > 1024) grid = 1024;
    if (grid == 0) grid = 1; /* n < 4: no float4 at all, but the scalars still need a thread */
    shfl_partial_sums_v4<<<grid, block>>>(in, work, n);
    shfl_partial_sums<<<1, 1024>>>(work, out, grid);
}

static void add(int, const float *, const float *, float *) {}
static void mv(int, int, const double *, const double *, double *) {}

#include "planted/entry_points.h"
