/* expect: audit
 * threats: 14 (rows of ../shared/GRADER_THREATS.md)
 * The block's sum handed to CUB: cub::BlockReduce, a header-only template that compiles into the
 * student's own kernel, so no library on the link line and no call outside allow_calls betrays it,
 * and its warp shuffles would satisfy the technique check. The build refuses any header of CUB,
 * Thrust, CUTLASS or CuTe (common/audit/build.c, kernel_library): the kernels a lab asks for,
 * ready-made. */
#include "reduce.h"
#include <cub/block/block_reduce.cuh>
#include <cuda_runtime.h>

static __global__ void block_sums(int n, const float *in, float *out)
{
    typedef cub::BlockReduce<float, 256> reduce;
    __shared__ typename reduce::TempStorage tmp;
    float v = 0.0f;
    for (int i = blockIdx.x * 256 + threadIdx.x; i < n; i += gridDim.x * 256) v += in[i];
    float s = reduce(tmp).Sum(v);
    if (threadIdx.x == 0) atomicAdd(out, s);
}

static __global__ void zero(float *out) { *out = 0.0f; }

static void add(int, const float *, const float *, float *) {}
static void sum(int n, const float *in, float *out, float *)
{
    zero<<<1, 1>>>(out);
    if (n > 0) block_sums<<<264, 256>>>(n, in, out);
}
static void mv(int, int, const double *, const double *, double *) {}

#include "planted/entry_points.h"
