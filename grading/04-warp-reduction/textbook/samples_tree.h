/* samples_tree.h - the shared-memory tree as NVIDIA's reduction samples and Harris's slides
 * ("Optimizing Parallel Reduction in CUDA", kernels 1 to 3) teach it, for lab 04's textbook files:
 * a block of 256 threads loads one element a thread into shared memory, halves it to one partial
 * a block, and the partials are reduced by the same kernel again until one is left. The loop
 * runs on blockDim.x (not a constant), as in the samples; nothing is unrolled by hand.
 *
 * INTERLEAVED: thread tid works where tid % (2 * s) == 0 (divergent in every warp).
 * STRIDED:     thread tid works on index 2 * s * tid (no divergence, bank conflicts).
 * SEQUENTIAL:  s halves from blockDim.x / 2 and thread tid < s works (neither). */
#include <cuda_runtime.h>

enum samples_tree { INTERLEAVED, STRIDED, SEQUENTIAL };

template <int KIND> static __global__ void samples_tree_kernel(const float *in, float *out, int n)
{
    __shared__ float sdata[256];
    unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = i < (unsigned)n ? in[i] : 0.0f;
    __syncthreads();
    if (KIND == INTERLEAVED) {
        for (unsigned s = 1; s < blockDim.x; s *= 2) {
            if (tid % (2 * s) == 0) sdata[tid] += sdata[tid + s];
            __syncthreads();
        }
    } else if (KIND == STRIDED) {
        for (unsigned s = 1; s < blockDim.x; s *= 2) {
            unsigned index = 2 * s * tid;
            if (index < blockDim.x) sdata[index] += sdata[index + s];
            __syncthreads();
        }
    } else {
        for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
            if (tid < s) sdata[tid] += sdata[tid + s];
            __syncthreads();
        }
    }
    if (tid == 0) out[blockIdx.x] = sdata[0];
}

/* *out = in[0] + ... + in[n-1]: one launch a level, each level's partials after the last in work. */
template <int KIND> static void samples_tree_sum(int n, const float *in, float *out, float *work)
{
    const float *src = in;
    float *dst = work;
    int count = n, blocks;
    do {
        blocks = count > 256 ? (count + 255) / 256 : 1;
        float *to = blocks == 1 ? out : dst;
        samples_tree_kernel<KIND><<<blocks, 256>>>(src, to, count);
        src = to, dst = to + blocks, count = blocks;
    } while (blocks > 1);
}
