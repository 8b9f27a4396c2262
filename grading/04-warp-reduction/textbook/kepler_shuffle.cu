/* textbook: shuffle
 * The `shuffle` stage built the way J. Luitjens's "Faster Parallel Reductions on Kepler" (NVIDIA
 * Developer Blog, 2014) designs it, in this workbook's own code (textbook/shuffle_reduce.h): each
 * thread sums a grid-stride run of the input in a register, each warp combines its 32 sums with
 * shuffle-down steps, the warps' totals meet in a 32-float shared array that warp 0 sums, and one
 * partial a block is stored. Launch shape as in the post: blocks of 512 threads, as many as the
 * input fills but at most 1024, then a single block of 1024 threads over those partials. Lab
 * adaptations: float data, the _sync shuffle, the partials in the scratch buffer `work` (the
 * lab's `out` is one float), internal linkage. Graded on `shuffle` only (the other stages launch
 * nothing): the study of what a pass certifies grades it, and a technique-correct textbook kernel
 * must pass. */
#include "reduce.h"
#include "textbook/shuffle_reduce.h"

#define PLANT_STAGES "shuffle"

/* Two passes: up to 1024 partials of 512-thread blocks into work, then one 1024-thread block. */
static void sum(int n, const float *in, float *out, float *work)
{
    const int block = 512;
    int grid = (n + block - 1) / block;
    if (grid > 1024) grid = 1024;
    shfl_partial_sums<<<grid, block>>>(in, work, n);
    shfl_partial_sums<<<1, 1024>>>(work, out, grid);
}

static void add(int, const float *, const float *, float *) {}
static void mv(int, int, const double *, const double *, double *) {}

#include "planted/entry_points.h"
