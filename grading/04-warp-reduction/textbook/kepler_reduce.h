/* kepler_reduce.h - the shuffle reduction of J. Luitjens, "Faster Parallel Reductions on Kepler"
 * (NVIDIA Developer Blog, 2014) and its code (NVIDIA-developer-blog/code-samples,
 * posts/parallel_reduction_with_shfl: warp_reduce.h, block_reduce.h, device_reduce_stable.h), for
 * lab 04's textbook files: warpReduceSum (five __shfl_down steps, the total in lane 0),
 * blockReduceSum (each warp's sum through a shared array of 32, then warp 0 reduces them),
 * deviceReduceKernel (a grid-stride loop adding in a register, one partial a block), and the
 * blog's launches: 512 threads, min(blocks, 1024) blocks, then one block of 1024 over the
 * partials. As the lab needs: float for int; __shfl_down_sync(0xffffffff, ...) for the blog's
 * __shfl_down (deprecated in CUDA 9 for the _sync form, and unavailable on sm_70 and later); the
 * partials in `work` (the blog writes them to `out` and reduces it in place, but the lab's out is
 * one float); every function static. Nothing unrolled by hand, no extra accumulators. */
#include <cuda_runtime.h>

static __inline__ __device__ float warpReduceSum(float val)
{
    for (int offset = warpSize / 2; offset > 0; offset /= 2) val += __shfl_down_sync(0xffffffff, val, offset);
    return val;
}

static __inline__ __device__ float blockReduceSum(float val)
{
    static __shared__ float shared[32]; // Shared mem for 32 partial sums
    int lane = threadIdx.x % warpSize;
    int wid = threadIdx.x / warpSize;

    val = warpReduceSum(val); // Each warp performs partial reduction

    if (lane == 0) shared[wid] = val; // Write reduced value to shared memory

    __syncthreads(); // Wait for all partial reductions

    // read from shared memory only if that warp existed
    val = (threadIdx.x < blockDim.x / warpSize) ? shared[lane] : 0;

    if (wid == 0) val = warpReduceSum(val); // Final reduce within first warp

    return val;
}

static __global__ void deviceReduceKernel(const float *in, float *out, int N)
{
    float sum = 0;
    // reduce multiple elements per thread
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += blockDim.x * gridDim.x) {
        sum += in[i];
    }
    sum = blockReduceSum(sum);
    if (threadIdx.x == 0) out[blockIdx.x] = sum;
}
