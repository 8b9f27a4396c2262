/* expect: too-slow in interleaved,strided,sequential
 * threats: 43 (rows of ../shared/GRADER_THREATS.md)
 * Re-derives its input instead of reading it: at the timed size it looks on the stack above its
 * own frame for the seed the input was made from (each word tried by a kernel against the first
 * four elements, the generator copied from the workbook's own source), and where one matches it
 * sums the generator's values without reading the gigabyte. Where none does, one block sums the
 * input: far too slow. The runner holds no seed once the student's code runs (runner.c
 * forget_seed), so only the slow path is left. (`shuffle` and `vectorized` run it too, but have no
 * shuffle or float4: they are reported "technique" before any timing.) */
#include <stdint.h>

#include "reduce.h"
#include "planted/common_kernels.h"

__device__ static uint64_t mix(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* The sum's input element i: uniform in [-1, 1) on multiples of 2^-6 (lab.c, proto.c's vary_value). */
__device__ static float element(uint64_t seed, uint64_t i)
{
    uint64_t z = mix(seed ^ mix(i + 0x9e3779b97f4a7c15ull));
    double x = __dadd_rn(-1.0, __dmul_rn(2.0, (double)(z >> 11) * 0x1.0p-53));
    return (float)(rint(x * 64.0) / 64.0);
}

struct words { uint64_t w[256]; };
__device__ static uint64_t found_seed;
__device__ static int found;

__global__ static void forget(void) { found = 0; }

__global__ static void try_words(words c, const float *in)
{
    uint64_t s = c.w[threadIdx.x];
    bool match = true;
    for (int k = 0; k < 4; k++) match = match && element(s, (uint64_t)k) == in[k];
    if (match) found_seed = s, found = 1;
}

/* One partial per block: derived where the seed was found; otherwise block 0 reads it all. */
__global__ static void partials(int n, const float *in, float *work)
{
    __shared__ float s[256];
    float v = 0.0f;
    if (found)
        for (long i = blockIdx.x * 256L + threadIdx.x; i < n; i += 256L * gridDim.x) v += element(found_seed, (uint64_t)i);
    else if (blockIdx.x == 0)
        for (long i = threadIdx.x; i < n; i += 256) v += in[i];
    s[threadIdx.x] = v;
    __syncthreads();
    for (int stride = 128; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) work[blockIdx.x] = s[0];
}

static void sum(int n, const float *in, float *out, float *work)
{
    if (n < (1 << 28)) return honest_sum(n, in, out, work); /* correctness cases: honest */
    words c;
    const volatile uint64_t *sp = (const volatile uint64_t *)__builtin_frame_address(0);
    for (int k = 0; k < 256; k++) c.w[k] = sp[k]; /* 2 KiB of the callers' frames */
    forget<<<1, 1>>>();
    try_words<<<1, 256>>>(c, in);
    partials<<<1024, 256>>>(n, in, work);
    partial_kernel<<<1, 256>>>(1024, work, out);
}

#include "planted/entry_points.h"
