/* seed_probe.h - what the finds_seed plants of the GPU labs (06-11) share: a look for the seed of
 * a timed call's varying input on the runner's stack (threat 43), the input's generator copied
 * from the workbook's own source, and a spin on the GPU for where none is found. Instructor-only,
 * like planted/ (common/tools/kit.sh leaves grading/plants/ out of the student kit; common/audit/build.c lets a
 * build read it where it exists). A plant includes it as "../plants/seed_probe.h" and calls, at
 * the timed size only and before its honest work,
 *     seed_probe(__builtin_frame_address(0), vary, SEED_PROBE_F32, lo, hi, quantum, spin_ns);
 * vary the problem's `.vary` buffer, lo, hi, quantum its lab_problem's. That copies
 * SEED_PROBE_WORDS words (256, 2 KiB, unless the plant defines fewer first: where its frame lies
 * within 2 KiB of the top of the stack, reading that far is a SIGSEGV) of the callers' frames
 * above the plant's own into a kernel argument, tests each on the
 * device as the seed the vary buffer was made from (its first 16 elements, bit for bit), and
 * where none matches spins for spin_ns: the call is then too slow. Where one matches it costs two
 * small launches. On the old tree (before 31c6b3c) run_timed kept each call's seed in a local, so
 * the plant passed there; runner.c's forget_seed leaves no seed to find now. */
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <stdint.h>

/* The types of the vary buffers, as common/runner/gpu_kernels.cu's store() numbers them (lab_type). */
#define SEED_PROBE_F32 1
#define SEED_PROBE_F16 2
#define SEED_PROBE_I32 3

#ifndef SEED_PROBE_WORDS
#define SEED_PROBE_WORDS 256
#endif

/* common/runner/gpu_kernels.cu's mix and vary_value (proto.c's digest_mix and vary_scaled), verbatim. */
__device__ static uint64_t seed_probe_mix(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

__device__ static double seed_probe_value(uint64_t seed, uint64_t i, double lo, double hi, double quantum)
{
    uint64_t z = seed_probe_mix(seed ^ seed_probe_mix(i + 0x9e3779b97f4a7c15ull));
    double u = (double)(z >> 11) * 0x1.0p-53;
    double x = __dadd_rn(lo, __dmul_rn(__dsub_rn(hi, lo), u));
    return quantum > 0 ? __dmul_rn(rint(__ddiv_rn(x, quantum)), quantum) : x;
}

/* The bits store() leaves for v in a buffer of `type`: a float, a __half, or an int32 rounded
 * with rint and clamped (proto.c's to_i32). */
__device__ static uint32_t seed_probe_bits(int type, double v)
{
    if (type == SEED_PROBE_I32) {
        int32_t i = isnan(v) || v >= 2147483647.0 ? INT32_MAX : v <= -2147483648.0 ? INT32_MIN : (int32_t)rint(v);
        return (uint32_t)i;
    }
    if (type == SEED_PROBE_F16) return __half_as_ushort(__double2half(v));
    return __float_as_uint((float)v);
}

/* Element k's bits as they lie in the buffer. */
__device__ static uint32_t seed_probe_stored(int type, const void *buf, int k)
{
    return type == SEED_PROBE_F16 ? ((const unsigned short *)buf)[k] : ((const uint32_t *)buf)[k];
}

struct seed_probe_words {
    uint64_t w[SEED_PROBE_WORDS];
};

__device__ static int seed_probe_hit; /* this call's: a word of the stack was the seed */

/* One thread a word: is it the seed the first 16 elements of `vary` were made from? (16, not 4:
 * lab 10's ints take 14 values, and four of them would match a wrong word once in 38,000.) */
__global__ static void seed_probe_try(seed_probe_words c, const void *vary, int type, double lo, double hi,
                                      double quantum)
{
    if (threadIdx.x == 0) seed_probe_hit = 0;
    __syncthreads();
    uint64_t s = c.w[threadIdx.x];
    bool match = true;
    for (int k = 0; k < 16; k++)
        match = match && seed_probe_bits(type, seed_probe_value(s, (uint64_t)k, lo, hi, quantum)) ==
                             seed_probe_stored(type, vary, k);
    if (match) seed_probe_hit = 1;
}

/* As common/runner/gpu_kernels.cu's wb_hold_kernel reads the time. */
__device__ static unsigned long long seed_probe_clock(void)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

/* Where no word was the seed: hold the GPU (the stream) for ns nanoseconds. */
__global__ static void seed_probe_spin(unsigned long long ns)
{
    if (seed_probe_hit) return;
    unsigned long long t0 = seed_probe_clock();
    while (seed_probe_clock() - t0 < ns) {
#if __CUDA_ARCH__ >= 700
        __nanosleep(1000);
#endif
    }
}

/* frame: the plant's own __builtin_frame_address(0), taken there (here it would be this
 * function's frame, further from the runner's). The spin is queued on the default stream before
 * the plant's honest work, so the call's time includes it. */
static void seed_probe(const void *frame, const void *vary, int type, double lo, double hi, double quantum,
                       unsigned long long spin_ns)
{
    seed_probe_words c;
    const volatile uint64_t *sp = (const volatile uint64_t *)frame;
    for (int k = 0; k < SEED_PROBE_WORDS; k++) c.w[k] = sp[k]; /* the callers' frames */
    seed_probe_try<<<1, SEED_PROBE_WORDS>>>(c, vary, type, lo, hi, quantum);
    seed_probe_spin<<<1, 1>>>(spin_ns);
}
