/* gpu_kernels.cu - the runner's own device work, so that nothing a timed call needs passes
 * through host memory: a timed call's varying input derived from its secret (vary_value), the
 * poison written over an output, the output's digest (digest_chunk) and the values at the
 * positions the scorer picks. Each matches its host twin in proto.c bit for bit: the scorer
 * recomputes them on the host. Also the event timing of one call (wb_gpu_time), which the probe
 * shares, so that a lab's kernels and its ceiling are timed alike. Linked into GPU labs' runners
 * (called from gpu.c) and into the probe. Every kernel's name begins wb_: `make profile` profiles
 * every kernel but these (bench.c), so only the student's. */
#include <cuda_fp16.h>
#include <stdint.h>

#include "cuda_check.h"

#define LANES 32         /* DIGEST_LANES in proto.h */
#define CHUNK_WORDS 16384 /* DIGEST_CHUNK */

__device__ static uint64_t mix(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* As vary_value: explicit round-to-nearest multiply and add, so nvcc fuses nothing into an FMA
 * the host does not do. */
__device__ static double vary_value(uint64_t seed, uint64_t i, double lo, double hi, double quantum)
{
    uint64_t z = mix(seed ^ mix(i + 0x9e3779b97f4a7c15ull));
    double u = (double)(z >> 11) * 0x1.0p-53;
    double x = __dadd_rn(lo, __dmul_rn(__dsub_rn(hi, lo), u));
    return quantum > 0 ? __dmul_rn(rint(__ddiv_rn(x, quantum)), quantum) : x;
}

/* type: 0 double, 1 float, 2 half, 3 int32 (lab_type's F64, F32, F16, I32); an int32 as proto.c's to_i32. */
__device__ static void store(void *p, int type, size_t i, double v)
{
    if (type == 3) ((int32_t *)p)[i] = isnan(v) || v >= 2147483647.0 ? INT32_MAX
                                       : v <= -2147483648.0       ? INT32_MIN
                                                                   : (int32_t)rint(v);
    else if (type == 2) ((__half *)p)[i] = __double2half(v);
    else if (type == 1) ((float *)p)[i] = (float)v;
    else ((double *)p)[i] = v;
}

/* The seed of the input being made: copied here from the runner's secret cell (mapped host memory,
 * read once rather than by every thread), read by wb_vary_kernel, and zeroed behind it. Never a
 * kernel argument, which the driver would copy into memory of its own. */
__device__ static uint64_t seed_word;

__global__ static void wb_take_seed(const volatile uint64_t *cell, uint64_t add) { seed_word = *cell + add; }
__global__ static void wb_drop_seed(void) { seed_word = 0; }

__global__ static void wb_vary_kernel(void *p, int type, size_t n, double lo, double hi, double q)
{
    uint64_t seed = seed_word;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        store(p, type, i, vary_value(seed, i, lo, hi, q));
}

__global__ static void wb_fill_kernel(void *p, int type, size_t n, double v)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        store(p, type, i, v);
}

__device__ static uint64_t word_at(const unsigned char *p, size_t bytes, size_t q)
{
    size_t at = q * 8;
    if (at + 8 <= bytes && (((uintptr_t)p + at) & 7) == 0) return *(const uint64_t *)(p + at);
    uint64_t w = 0;
    for (size_t b = 0; b < 8 && at + b < bytes; b++) w |= (uint64_t)p[at + b] << (8 * b);
    return w;
}

/* One warp a chunk: lane j hashes words j, j + 32, ... of it (reads coalesced), then lane 0
 * chains the 32 lane hashes in order, as digest_chunk does. */
__global__ static void wb_digest_kernel(const unsigned char *p, size_t bytes, uint64_t key, uint64_t *out, size_t nchunks)
{
    size_t chunk = (blockIdx.x * (size_t)blockDim.x + threadIdx.x) / LANES;
    unsigned lane = threadIdx.x % LANES;
    if (chunk >= nchunks) return; /* whole warps leave together: blockDim is a multiple of 32 */
    size_t words = (bytes + 7) / 8;
    uint64_t h = mix(key + chunk * LANES + lane);
    for (size_t t = 0; t < CHUNK_WORDS / LANES; t++) {
        size_t q = chunk * CHUNK_WORDS + t * LANES + lane;
        if (q < words) h = mix(h ^ word_at(p, bytes, q));
    }
    uint64_t g = mix(key ^ chunk);
    for (unsigned j = 0; j < LANES; j++) g = mix(g ^ __shfl_sync(0xffffffffu, h, j));
    if (lane == 0) out[chunk] = g;
}

__global__ static void wb_gather_kernel(const unsigned char *p, size_t esz, const uint64_t *at, size_t n, unsigned char *dst)
{
    for (size_t k = blockIdx.x * (size_t)blockDim.x + threadIdx.x; k < n; k += (size_t)gridDim.x * blockDim.x)
        for (size_t b = 0; b < esz; b++) dst[k * esz + b] = p[at[k] * esz + b];
}

static unsigned blocks_for(size_t n, unsigned threads)
{
    size_t b = (n + threads - 1) / threads;
    return (unsigned)(b < 1 ? 1 : b > 65535 ? 65535 : b);
}

/* Timing one call with events. On an idle GPU an event recorded before a launch completes at
 * once, while the host is still launching, and one recorded after cudaDeviceSynchronize waits
 * for the host to wake and record it: each adds microseconds that are not the call's (graded
 * figures sat 5-10% under kernel-only ones at 0.2 ms a call, docs/BENCHMARKS.md). So a one-thread
 * kernel holds the default stream until the host has queued the call (a flag in mapped host
 * memory), or for HOLD_NS at most, should the call itself wait for the stream (a synchronous
 * copy); the start event waits behind it. 250 us, not 20: a host that slept between calls (the
 * scorer checks each output meanwhile) took 35-47 us to queue lab 11's call on an H200 host, and
 * with 20 us the rest was timed as the call's (docs/BENCHMARKS.md, "The thirty-second session"). The
 * end event is recorded on the legacy default stream, which waits for every blocking stream.
 * Work on a non-blocking stream could run past it: if the device synchronisation ends more than
 * LATE_MS after the end event, the time runs to an event recorded after it instead. */
#ifndef HOLD_NS /* a study may set it (scripts/studies/clocks.cu) */
#define HOLD_NS 250000ull
#endif
#define LATE_MS 0.05f

__device__ static unsigned long long globaltimer(void)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

__global__ static void wb_hold_kernel(const volatile int *go, unsigned long long limit_ns)
{
    unsigned long long t0 = globaltimer();
    while (!*go && globaltimer() - t0 < limit_ns) {
#if __CUDA_ARCH__ >= 700
        __nanosleep(200);
#endif
    }
}

extern "C" {
int wb_harness_launch;
}
static volatile int *go_host;
static int *go_dev;
static unsigned long long hold_ns = HOLD_NS;
static cudaEvent_t ev[3];
static uint64_t *secret_host, *secret_dev; /* the runner's secret cell (lab.h), 32 bytes */

/* Before any timing (the runner: before its sandbox). */
extern "C" void wb_gpu_timer_init(void)
{
    if (go_host) return;
    CUDA_CHECK(cudaHostAlloc((void **)&go_host, sizeof *go_host, cudaHostAllocMapped));
    CUDA_CHECK(cudaHostGetDevicePointer((void **)&go_dev, (void *)go_host, 0));
    CUDA_CHECK(cudaHostAlloc((void **)&secret_host, 32, cudaHostAllocMapped));
    CUDA_CHECK(cudaHostGetDevicePointer((void **)&secret_dev, (void *)secret_host, 0));
    for (int i = 0; i < 3; i++) CUDA_CHECK(cudaEventCreate(&ev[i]));
}

/* How long the hold may last: a lab whose calls wait for the stream in ways not listed below (05's
 * copies) keeps it short, since each such wait lasts the whole hold. */
extern "C" void wb_gpu_timer_hold(unsigned long long ns) { hold_ns = ns; }

/* A call that waits for the device lets the hold go first, or it would wait the hold out. Every
 * runner is linked with --wrap=cudaDeviceSynchronize (gpu_register.h), the one such call labs 04
 * and 06-11 allow; in a program linked without it (the probe, the studies) the weak __real_ is
 * null and the call goes straight through. */
extern "C" cudaError_t __real_cudaDeviceSynchronize(void) __attribute__((weak));
extern "C" cudaError_t __wrap_cudaDeviceSynchronize(void)
{
    if (go_host) {
        __sync_synchronize();
        *go_host = 1;
    }
    return __real_cudaDeviceSynchronize ? __real_cudaDeviceSynchronize() : cudaDeviceSynchronize();
}

/* Seconds that f(arg) kept the device busy, from its first queued work to its last. */
extern "C" double wb_gpu_time(void (*f)(void *), void *arg)
{
    wb_gpu_timer_init();
    *go_host = 0;
    __sync_synchronize();
    wb_harness_launch = 1; /* not the call's: a lab that traces launches (05) leaves it out */
    wb_hold_kernel<<<1, 1>>>(go_dev, hold_ns);
    wb_harness_launch = 0;
    CUDA_CHECK_LAST();
    CUDA_CHECK(cudaEventRecord(ev[0], 0));
    f(arg);
    cuda_check_student();
    CUDA_CHECK(cudaEventRecord(ev[1], 0));
    __sync_synchronize();
    *go_host = 1;
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaEventRecord(ev[2], 0));
    CUDA_CHECK(cudaEventSynchronize(ev[2]));
    float ms = 0, tail = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, ev[0], ev[1]));
    CUDA_CHECK(cudaEventElapsedTime(&tail, ev[1], ev[2]));
    return (tail > LATE_MS ? ms + tail : ms) * 1e-3;
}

/* Scratch on the device for digests and gathers, grown as needed and kept. */
static void *scratch;
static size_t scratch_bytes;
static void *room(size_t bytes)
{
    if (bytes > scratch_bytes) {
        if (scratch) CUDA_CHECK(cudaFree(scratch));
        CUDA_CHECK(cudaMalloc(&scratch, bytes));
        scratch_bytes = bytes;
    }
    return scratch;
}

extern "C" uint64_t *wb_gpu_secret(void) { return secret_host; }

/* n elements at d as vary_fill(s + add), s the seed in the secret cell; stream-ordered, so the
 * caller synchronises before it wipes the cell. */
extern "C" void wb_gpu_vary(void *d, int type, size_t n, uint64_t add, double lo, double hi, double quantum)
{
    wb_take_seed<<<1, 1>>>(secret_dev, add);
    CUDA_CHECK_LAST();
    wb_vary_kernel<<<blocks_for(n, 256), 256>>>(d, type, n, lo, hi, quantum);
    CUDA_CHECK_LAST();
    wb_drop_seed<<<1, 1>>>();
    CUDA_CHECK_LAST();
}

extern "C" void wb_gpu_fill(void *d, int type, size_t n, double v)
{
    wb_fill_kernel<<<blocks_for(n, 256), 256>>>(d, type, n, v);
    CUDA_CHECK_LAST();
}

/* The chunk hashes of `bytes` bytes at d, into host memory (nchunks of them). */
extern "C" void wb_gpu_digest_chunks(const void *d, size_t bytes, uint64_t key, uint64_t *host, size_t nchunks)
{
    uint64_t *out = (uint64_t *)room(nchunks * sizeof *out);
    size_t threads = nchunks * LANES;
    wb_digest_kernel<<<(unsigned)((threads + 255) / 256), 256>>>((const unsigned char *)d, bytes, key, out, nchunks);
    CUDA_CHECK_LAST();
    CUDA_CHECK(cudaMemcpy(host, out, nchunks * sizeof *out, cudaMemcpyDeviceToHost));
}

extern "C" void wb_gpu_gather(const void *d, size_t esz, const uint64_t *at, size_t n, void *host)
{
    unsigned char *s = (unsigned char *)room(n * (sizeof *at + esz));
    CUDA_CHECK(cudaMemcpy(s, at, n * sizeof *at, cudaMemcpyHostToDevice));
    wb_gather_kernel<<<blocks_for(n, 256), 256>>>((const unsigned char *)d, esz, (const uint64_t *)s, n, s + n * sizeof *at);
    CUDA_CHECK_LAST();
    CUDA_CHECK(cudaMemcpy(host, s + n * sizeof *at, n * esz, cudaMemcpyDeviceToHost));
}
