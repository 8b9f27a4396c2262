/* textbook: shuffle
 * The `shuffle` sum as Luitjens's "Faster Parallel Reductions on Kepler" (NVIDIA Developer Blog,
 * 2014) teaches it: deviceReduceKernel (a grid-stride loop, then blockReduceSum: warpReduceSum by
 * __shfl_down, each warp's sum through a 32-slot shared array, warp 0 reducing those), launched
 * as the blog's deviceReduce does: 512 threads, min((N + 511) / 512, 1024) blocks, then
 * deviceReduceKernel<<<1, 1024>>> over the partials (textbook/kepler_reduce.h). Added for the
 * lab's interface: float for int, __shfl_down_sync(0xffffffff, ...) for __shfl_down, the
 * partials in `work` (the blog reuses `out`, one float here), static functions. Graded on
 * `shuffle` only (the other stages launch nothing): the study of what a pass certifies grades
 * it, and a technique-correct textbook kernel must pass. */
#include "reduce.h"
#include "textbook/kepler_reduce.h"

#define PLANT_STAGES "shuffle"

static void deviceReduce(const float *in, float *out, float *work, int N)
{
    int threads = 512;
    int blocks = min((N + threads - 1) / threads, 1024);

    deviceReduceKernel<<<blocks, threads>>>(in, work, N);
    deviceReduceKernel<<<1, 1024>>>(work, out, blocks);
}

static void add(int, const float *, const float *, float *) {}
static void sum(int n, const float *in, float *out, float *work) { deviceReduce(in, out, work, n); }
static void mv(int, int, const double *, const double *, double *) {}

#include "planted/entry_points.h"
