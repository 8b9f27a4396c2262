/* shuffle_reduce.h - lab 04's textbook sum by warp shuffles, shared by kepler_shuffle.cu and
 * protip_vector4.cu. It follows the design J. Luitjens describes in "Faster Parallel Reductions
 * on Kepler" (NVIDIA Developer Blog, 2014; the post's code is in NVIDIA-developer-blog/
 * code-samples, posts/parallel_reduction_with_shfl), written here in this workbook's own code:
 *   - inside a warp, five shuffle-down steps (distances 16, 8, 4, 2, 1) leave the warp's total in
 *     lane 0;
 *   - inside a block, lane 0 of every warp puts its warp's total in a 32-float shared array, and
 *     after one barrier the first warp adds those up the same way;
 *   - over the grid, each thread first accumulates a grid-stride run of the input in a register,
 *     and each block stores one partial.
 * The launches (in the .cu files) are the post's: 512 threads and at most 1024 blocks, then one
 * block of 1024 threads over the partials. Differences the lab requires: float instead of int;
 * the _sync shuffle with a full mask (the unsynchronised shuffle is gone from sm_70 on); the
 * partials go to the lab's scratch buffer `work`, since the lab's `out` holds a single float;
 * internal linkage everywhere. No hand unrolling and a single accumulator per thread, as in the
 * post. The warp-size arithmetic is written with the built-in warpSize, as the post does. */
#include <cuda_runtime.h>

/* The warp's 32 values summed; only lane 0's result is the full total. */
static __inline__ __device__ float shfl_warp_sum(float v)
{
    int dist = warpSize / 2;
    while (dist > 0) {
        v += __shfl_down_sync(0xffffffff, v, dist);
        dist /= 2;
    }
    return v;
}

/* The block's values summed; the total is valid in thread 0 only. */
static __inline__ __device__ float shfl_block_sum(float v)
{
    __shared__ float per_warp[32]; /* slot w: the total of warp w (a block has at most 32 warps) */
    const int my_warp = threadIdx.x / warpSize;
    const int my_lane = threadIdx.x % warpSize;

    v = shfl_warp_sum(v);
    if (my_lane == 0) per_warp[my_warp] = v;
    __syncthreads();

    /* Warp 0 then adds the warps' totals: its lane k takes slot k, or zero where the block has
     * no warp k. */
    if (my_warp == 0) {
        const float slot = threadIdx.x < blockDim.x / warpSize ? per_warp[my_lane] : 0;
        v = shfl_warp_sum(slot);
    }
    return v;
}

/* part[blockIdx.x] = this block's share of src[0 .. count): a grid-stride sweep, then the block sum. */
static __global__ void shfl_partial_sums(const float *src, float *part, int count)
{
    const int first = threadIdx.x + blockIdx.x * blockDim.x;
    float acc = 0;
    for (int k = first; k < count; k += gridDim.x * blockDim.x) acc += src[k];
    acc = shfl_block_sum(acc);
    if (threadIdx.x == 0) part[blockIdx.x] = acc;
}
