/* emu.h - just enough of CUDA to run a lab's kernels on the CPU, one OS thread per CUDA thread:
 * blocks three at a time (EMU_BLOCKS: 1 to 4), taken in a shuffled order (seeded, printed: EMU_SEED
 * replays it) as a GPU's scheduler hands blocks to its SMs, so a block may wait for another that runs
 * beside it (a look-back's waiting path runs) or for one not started yet (a hang, said as such);
 * __syncthreads a barrier of the block, warp shuffles through a per-warp exchange, each block's
 * __shared__ arrays its own (cu2cpp.py rewrites them as emu_shared). For checking indexing and
 * logic, never timing. A crash, or a call that does not finish (EMU_TIMEOUT seconds, 120 by
 * default), is reported with the stage and size it happened at (emu_at). */
#include <csignal>
#include <ctime>
#include <cstdlib>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <pthread.h>
#include <semaphore.h>
#include <unistd.h>
#include <vector>

struct dim3 {
    unsigned x, y, z;
    dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {}
};
struct float2 {
    float x, y;
};
static inline float2 make_float2(float a, float b) { return {a, b}; }
struct float4 {
    float x, y, z, w;
};
static inline float4 make_float4(float a, float b, float c, float d) { return {a, b, c, d}; }
typedef int cudaError_t;
#define cudaSuccess 0
#ifndef EMU_STREAMS /* a stream layer (emu_streams.h, lab 05) has its own, with errors and queued work */
/* The error checks the handouts teach: nothing fails asynchronously here. */
static inline cudaError_t cudaGetLastError() { return cudaSuccess; }
static inline cudaError_t cudaPeekAtLastError() { return cudaSuccess; }
static inline cudaError_t cudaDeviceSynchronize() { return cudaSuccess; }
static inline const char *cudaGetErrorString(cudaError_t) { return "no error"; }
#endif
enum { warpSize = 32 };
#define __global__
#define __device__
#define __host__
#define __restrict__
#define __shared__ static /* a form cu2cpp.py does not rewrite: shared by the blocks running at once */
#define __forceinline__ inline
#define EMU_SLOTS 4 /* blocks running at once, at most (EMU_BLOCKS) */
static thread_local dim3 threadIdx, blockIdx;
static thread_local unsigned emu_slot; /* which of the blocks running at once this thread's block is */
static dim3 blockDim, gridDim;
static pthread_barrier_t emu_block_barrier[EMU_SLOTS];
static pthread_barrier_t emu_warp_barrier[EMU_SLOTS][32];
static long long emu_exchange[EMU_SLOTS][32][32];
/* Every __shared__ declaration's storage seen so far, so that each block starts with it garbage
 * (all bits set: NaN for floats, -1 for ints), as on a GPU, where nothing clears shared memory: a
 * read of a slot no thread wrote then shows as a wrong result (compute-sanitizer cannot see one:
 * its initcheck follows global memory only). */
static struct { unsigned char *base; size_t each; } emu_shared_list[256];
static unsigned emu_shared_count;
static bool emu_register_shared(void *storage, size_t each)
{
    memset(storage, 0xff, each * EMU_SLOTS);
    unsigned k = __atomic_fetch_add(&emu_shared_count, 1, __ATOMIC_SEQ_CST);
    if (k < sizeof emu_shared_list / sizeof *emu_shared_list) emu_shared_list[k] = {(unsigned char *)storage, each};
    return true;
}
/* A __shared__ declaration's storage (number ID in the file): one a block running at once. */
template <class A, int ID> static inline A *emu_shared()
{
    alignas(64) static A storage[EMU_SLOTS];
    static bool registered = emu_register_shared(storage, sizeof(A)); /* once, before any use */
    (void)registered;
    return &storage[emu_slot];
}
/* Now and then a block pauses at a barrier (thread 0 sleeps 20-400 us, one barrier in four): blocks running at
 * once then drift apart as on a GPU, where a block may be held up at any point, so a block that
 * reads what another publishes sometimes finds it not there yet (a look-back's waiting path runs). */
static unsigned emu_slots_now = 1; /* blocks running at once in this launch */
static thread_local unsigned long long emu_jitter_state;
static inline void emu_jitter()
{
    if (emu_slots_now < 2) return;
    unsigned long long x = emu_jitter_state ? emu_jitter_state : 0x9e3779b97f4a7c15ull * (emu_slot + 1) ^ (unsigned long long)pthread_self();
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    emu_jitter_state = x;
    if (x % 4 == 0) usleep(20 + (unsigned)(x >> 8) % 380);
}
static inline int emu_tid();
static unsigned emu_sync_waiting[EMU_SLOTS]; /* threads of each slot's block inside a __syncthreads now */
/* ... and at its end: a barrier of its own, so that a __syncthreads some threads skip hangs there
 * (and is named) instead of meeting the others' end */
static pthread_barrier_t emu_end_barrier[EMU_SLOTS];
static unsigned emu_end_waiting[EMU_SLOTS];
static inline void __syncthreads()
{
    if (emu_tid() == 0) emu_jitter();
    __atomic_add_fetch(&emu_sync_waiting[emu_slot], 1, __ATOMIC_SEQ_CST);
    pthread_barrier_wait(&emu_block_barrier[emu_slot]);
    __atomic_sub_fetch(&emu_sync_waiting[emu_slot], 1, __ATOMIC_SEQ_CST);
}
static inline void __syncwarp(unsigned = 0xffffffffu) {} /* a warp's lanes meet at each shuffle here */
static inline int emu_tid() { return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); }
template <class T> static inline T emu_shfl(T v, int src_of(int, int), int arg)
{
    int t = emu_tid(), w = t / 32, lane = t % 32;
    long long bits = 0;
    memcpy(&bits, &v, sizeof v);
    emu_exchange[emu_slot][w][lane] = bits;
    pthread_barrier_wait(&emu_warp_barrier[emu_slot][w]);
    int s = src_of(lane, arg);
    T r = v;
    if (s >= 0 && s < 32) memcpy(&r, &emu_exchange[emu_slot][w][s], sizeof r);
    pthread_barrier_wait(&emu_warp_barrier[emu_slot][w]);
    return r;
}
static int emu_xor(int lane, int d) { return lane ^ d; }
static int emu_down(int lane, int d) { return lane + d < 32 ? lane + d : lane; }
static int emu_up(int lane, int d) { return lane - d >= 0 ? lane - d : lane; }
static int emu_idx(int, int s) { return s & 31; }
template <class T> static inline T __shfl_xor_sync(unsigned, T v, int d) { return emu_shfl(v, emu_xor, d); }
template <class T> static inline T __shfl_down_sync(unsigned, T v, int d) { return emu_shfl(v, emu_down, d); }
template <class T> static inline T __shfl_up_sync(unsigned, T v, int d) { return emu_shfl(v, emu_up, d); }
template <class T> static inline T __shfl_sync(unsigned, T v, int s) { return emu_shfl(v, emu_idx, s); }
/* Atomics under one lock (blocks running at once share it); fences are the CPU's. */
static pthread_mutex_t emu_atomic_lock = PTHREAD_MUTEX_INITIALIZER;
template <class T> static inline T atomicAdd(T *p, T v)
{
    pthread_mutex_lock(&emu_atomic_lock);
    T old = *p;
    *p = old + v;
    pthread_mutex_unlock(&emu_atomic_lock);
    return old;
}
/* A vote of the warp: each lane's predicate through the exchange, every lane gets the mask. */
static inline unsigned __ballot_sync(unsigned, int pred)
{
    int t = emu_tid(), w = t / 32, lane = t % 32;
    unsigned n = blockDim.x * blockDim.y * blockDim.z, lanes = n - 32 * w < 32 ? n - 32 * w : 32;
    emu_exchange[emu_slot][w][lane] = pred != 0;
    pthread_barrier_wait(&emu_warp_barrier[emu_slot][w]);
    unsigned mask = 0;
    for (unsigned l = 0; l < lanes; l++) mask |= (unsigned)emu_exchange[emu_slot][w][l] << l;
    pthread_barrier_wait(&emu_warp_barrier[emu_slot][w]);
    return mask;
}
static inline int __any_sync(unsigned m, int pred) { return __ballot_sync(m, pred) != 0; }
static inline int __all_sync(unsigned m, int pred)
{
    int t = emu_tid(), w = t / 32;
    unsigned n = blockDim.x * blockDim.y * blockDim.z, lanes = n - 32 * w < 32 ? n - 32 * w : 32;
    return __ballot_sync(m, pred) == (lanes == 32 ? 0xffffffffu : (1u << lanes) - 1);
}
static inline int __ffs(unsigned x) { return __builtin_ffs((int)x); }
static inline int __popc(unsigned x) { return __builtin_popcount(x); }
#define __launch_bounds__(...)
#define __align__(n) alignas(n)
#include <algorithm>

/* The checkers fill every output with -12345 before a call: an element still holding it was never written. */
#define EMU_UNWRITTEN(v) ((v) == -12345 ? " (never written: the poison the output was filled with)" : "")

/* EMU_STAGE=name (`make emulate STAGE=name`): that stage alone; a name that is no stage of the lab
 * is said, with the lab's stages, and the checker exits 2. */
static inline bool emu_stage_wanted(const char *name)
{
    const char *w = getenv("EMU_STAGE");
    return !w || !*w || !strcmp(w, name);
}
/* EMU_SIZE="m=3 n=31" (`make emulate SIZE=...`, as a failure line prints it): that size alone. */
static inline bool emu_size_wanted(const char *size)
{
    const char *w = getenv("EMU_SIZE");
    return !w || !*w || !strcmp(w, size);
}
static inline int emu_stage_known(const char *const *names, int n)
{
    const char *w = getenv("EMU_STAGE");
    if (!w || !*w) return 1;
    for (int i = 0; i < n; i++)
        if (!strcmp(w, names[i])) return 1;
    fprintf(stderr, "no stage named %s; the stages:", w);
    for (int i = 0; i < n; i++) fprintf(stderr, " %s", names[i]);
    fprintf(stderr, "\n");
    return 0;
}
using std::max; /* CUDA's integer min and max */
using std::min;
static inline void __threadfence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
#define __constant__
#define cudaMemcpyToSymbol(sym, src, bytes, ...) (memcpy(&(sym), (src), (bytes)), cudaSuccess)
#define cudaMemcpyToSymbolAsync(sym, src, bytes, ...) (memcpy(&(sym), (src), (bytes)), cudaSuccess)
/* A device of 2 SMs that hold 2 blocks each: a kernel that sizes its grid to the resident blocks
 * and loops over its tiles takes several tiles a block here. */
enum cudaDeviceAttr {
    cudaDevAttrMultiProcessorCount,
    cudaDevAttrComputeCapabilityMajor,
    cudaDevAttrComputeCapabilityMinor,
    cudaDevAttrMaxSharedMemoryPerBlock,
    cudaDevAttrMaxSharedMemoryPerBlockOptin,
};
/* Its compute capability: __CUDA_ARCH__'s where the checker defines it (lab 07: 900), else an H100's
 * (9.0); and that GPU's opt-in shared memory a block, which a kernel's choice of tiles may follow. */
#ifdef __CUDA_ARCH__
#define EMU_CC (__CUDA_ARCH__ / 10)
#else
#define EMU_CC 90
#endif
static inline int cudaGetDevice(int *d) { return *d = 0, cudaSuccess; }
static inline int cudaDeviceGetAttribute(int *v, cudaDeviceAttr a, int)
{
    int optin = EMU_CC >= 90 ? 227 * 1024 : EMU_CC == 80 ? 163 * 1024 : EMU_CC >= 86 ? 99 * 1024 : EMU_CC >= 75 ? 64 * 1024 : 96 * 1024;
    *v = a == cudaDevAttrComputeCapabilityMajor ? EMU_CC / 10 : a == cudaDevAttrComputeCapabilityMinor ? EMU_CC % 10
       : a == cudaDevAttrMaxSharedMemoryPerBlock ? 48 * 1024 : a == cudaDevAttrMaxSharedMemoryPerBlockOptin ? optin : 2;
    return cudaSuccess;
}
/* cudaFuncSetAttribute's dynamic shared-memory opt-in: the largest any kernel was given (which
 * kernel a launch runs, emu_launch does not know), for a checker's emu_launch_check. */
enum cudaFuncAttribute { cudaFuncAttributeMaxDynamicSharedMemorySize, cudaFuncAttributePreferredSharedMemoryCarveout };
static size_t emu_dynamic_optin;
#ifndef EMU_STREAMS /* lab 05's layer says it is not emulated there */
template <class F> static inline int cudaFuncSetAttribute(F, cudaFuncAttribute a, int v)
{
    if (a == cudaFuncAttributeMaxDynamicSharedMemorySize && v > 0 && (size_t)v > emu_dynamic_optin) emu_dynamic_optin = (size_t)v;
    return cudaSuccess;
}
#endif
template <class F> static inline int cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *v, F, int, size_t)
{
    return *v = 2, cudaSuccess;
}
struct int4 {
    int x, y, z, w;
};
static inline int4 make_int4(int a, int b, int c, int d) { return {a, b, c, d}; }
struct uint4 {
    unsigned x, y, z, w;
};
static inline uint4 make_uint4(unsigned a, unsigned b, unsigned c, unsigned d) { return {a, b, c, d}; }
struct uint2 {
    unsigned x, y;
};
static inline uint2 make_uint2(unsigned a, unsigned b) { return {a, b}; }
#define __expf(x) emu_fast_exp(x)
static inline float emu_fast_exp(float x) { return exp2f(x * 1.44269504f); }
template <class T> static inline void __stcs(T *p, T v) { *p = v; }
static inline float __fdividef(float a, float b) { return a / b; }
static inline unsigned __float_as_uint(float f) { unsigned u; memcpy(&u, &f, 4); return u; }
static inline float __uint_as_float(unsigned u) { float f; memcpy(&f, &u, 4); return f; }

/* Where the checker is (emu_at): what a crash or a hang is reported with. */
static char emu_where[200] = "setting up";
static unsigned emu_seed, emu_timeout = 120, emu_checked; /* emu_checked: calls made (emu_at) */
static unsigned emu_slots = 3; /* blocks running at once (EMU_BLOCKS) */
/* The fatal message is put together here and written at once: blocks run on threads of their own,
 * and two that crashed together once wrote their messages' pieces into each other. */
static char emu_said[4096];
static void emu_say(const char *t)
{
    size_t have = strlen(emu_said), add = strlen(t);
    if (have + add >= sizeof emu_said) add = sizeof emu_said - 1 - have;
    memcpy(emu_said + have, t, add);
    emu_said[have + add] = '\0';
}
static void emu_said_flush(void) { (void)!write(2, emu_said, strlen(emu_said)); }
static int emu_stopping; /* one thread says why it stops (a fatal signal, or emu_stop); the rest wait for the exit */
static void emu_fatal(int sig)
{
    if (__atomic_exchange_n(&emu_stopping, 1, __ATOMIC_SEQ_CST))
        for (;;) pause();
    char seed[64];
    snprintf(seed, sizeof seed, "%u", emu_seed); /* not async-signal-safe in theory; the process ends here */
    int divergent = 0; /* a block some of whose threads wait in a __syncthreads, the others at its end */
    for (unsigned k = 0; k < EMU_SLOTS; k++)
        divergent |= __atomic_load_n(&emu_sync_waiting[k], __ATOMIC_SEQ_CST) && __atomic_load_n(&emu_end_waiting[k], __ATOMIC_SEQ_CST);
    if (sig == SIGALRM && divergent) {
        emu_say("\nemu: did not finish in time: ");
        emu_say(emu_where);
        emu_say("\n  threads wait in a __syncthreads() that the rest of their block never reaches: a barrier inside "
                "a branch or a loop that not every thread of the block takes (an early return, `if (tid < s)`), which "
                "on a GPU is undefined: every thread of a block must reach each __syncthreads()\n");
    } else if (sig == SIGALRM) {
        emu_say("\nemu: did not finish in time: ");
        emu_say(emu_where);
        emu_say("\n  a block waiting for one that has not started? Blocks run three at a time here, taken in a "
                "shuffled order (EMU_SEED=");
        emu_say(seed);
        emu_say(" replays it), as a GPU starts them in no promised order: a block that waits on another must take "
                "its tile's number from a counter (atomicAdd) when it starts, never from blockIdx.x\n");
    } else {
        emu_say("\nemu: crashed (");
        emu_say(sig == SIGSEGV ? "SIGSEGV: an address outside every buffer" : sig == SIGBUS ? "SIGBUS" : sig == SIGFPE
                ? "SIGFPE: an integer division by zero" : sig == SIGABRT ? "SIGABRT: the heap damaged by a write outside a buffer?"
                : "a signal");
        emu_say(") in ");
        emu_say(emu_where);
        emu_say("\n");
    }
    emu_said_flush();
    _exit(1);
}
/* Before each call of a student's function: the stage and the size, and the time it may take. */
static time_t emu_call_start, emu_said_at; /* when the call began; when progress was last said */
static inline void emu_at(const char *stage, const char *size)
{
    snprintf(emu_where, sizeof emu_where, "stage %s at %s", stage, size);
    emu_checked++;
    emu_call_start = emu_said_at = time(NULL);
    alarm(emu_timeout);
}
/* A long call says every 15 s that it goes on (EMU_LARGE's sizes take minutes here). */
static int emu_launches;
static inline void emu_progress()
{
    time_t now = time(NULL);
    if (now - emu_said_at < 15) return;
    emu_said_at = now;
    fprintf(stderr, "  ... %s: still running after %lds (%d kernel launches so far)\n", emu_where,
            (long)(now - emu_call_start), emu_launches);
}
/* The end of a checker: 2 where the filters left nothing to check (a SIZE no stage is checked at). */
static inline int emu_nothing_checked()
{
    if (emu_checked) return 0;
    fprintf(stderr, "nothing checked: no size is \"%s\" (SIZE= takes a size as a failure line prints it, e.g. \"m=3 n=31\")\n",
            getenv("EMU_SIZE") ? getenv("EMU_SIZE") : "");
    return 1;
}
/* The start of a checker: lines out as they are printed (a crash loses none), the handlers, and
 * the seed of the blocks' order, said. */
static inline void emu_begin()
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    const char *s = getenv("EMU_SEED"), *t = getenv("EMU_TIMEOUT"), *b = getenv("EMU_BLOCKS");
    emu_seed = s && *s ? (unsigned)strtoul(s, NULL, 0) : (unsigned)time(NULL) ^ ((unsigned)getpid() << 16);
    if (getenv("EMU_LARGE")) emu_timeout = 1800; /* its calls take minutes here */
    if (t && *t) emu_timeout = (unsigned)strtoul(t, NULL, 0);
    if (b && *b) emu_slots = (unsigned)strtoul(b, NULL, 0);
    if (emu_slots < 1 || emu_slots > EMU_SLOTS) emu_slots = 3;
    int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGABRT, SIGILL, SIGALRM};
    for (int sig : sigs) signal(sig, emu_fatal);
    printf("blocks run %u at a time, taken in a shuffled order: EMU_SEED=%u replays it\n", emu_slots, emu_seed);
}

static void emu_poison_shared(unsigned slot);
struct emu_job {
    std::function<void()> body;
    unsigned tid, slot;
};
static std::vector<unsigned> emu_order; /* the launch's blocks, in the order they start */
static unsigned emu_next;               /* the next of emu_order to start */
static unsigned emu_slot_block[EMU_SLOTS]; /* what each slot runs now */
/* A thread of one slot: block after block, each the next in emu_order when the slot frees up. */
static void *emu_thread(void *p)
{
    emu_job *j = (emu_job *)p;
    emu_slot = j->slot;
    threadIdx = dim3(j->tid % blockDim.x, j->tid / blockDim.x % blockDim.y, j->tid / (blockDim.x * blockDim.y));
    for (;;) {
        if (j->tid == 0) {
            emu_slot_block[emu_slot] = __atomic_fetch_add(&emu_next, 1, __ATOMIC_SEQ_CST);
            emu_poison_shared(emu_slot); /* the block before in this slot has ended (the barrier below it) */
        }
        pthread_barrier_wait(&emu_block_barrier[emu_slot]);
        unsigned k = emu_slot_block[emu_slot];
        if (k >= emu_order.size()) break;
        unsigned b = emu_order[k];
        blockIdx = dim3(b % gridDim.x, b / gridDim.x % gridDim.y, b / (gridDim.x * gridDim.y));
        j->body();
        __atomic_add_fetch(&emu_end_waiting[emu_slot], 1, __ATOMIC_SEQ_CST);
        pthread_barrier_wait(&emu_end_barrier[emu_slot]); /* the block ends: its shared memory is reused */
        __atomic_sub_fetch(&emu_end_waiting[emu_slot], 1, __ATOMIC_SEQ_CST);
    }
    return NULL;
}
/* The OS threads that play CUDA threads, kept from launch to launch (creating thousands a launch
 * cost more than the kernels): worker i, woken by its own semaphore, plays thread i % n of slot i / n. */
struct emu_worker {
    pthread_t th;
    sem_t go;
    unsigned index;
};
static std::vector<emu_worker *> emu_workers;
static std::function<void()> emu_pool_body;
static unsigned emu_pool_n, emu_pool_left;
static sem_t emu_pool_done;
static void *emu_work(void *p)
{
    emu_worker *w = (emu_worker *)p;
    for (;;) {
        while (sem_wait(&w->go) != 0) {}
        emu_job j = {emu_pool_body, w->index % emu_pool_n, w->index / emu_pool_n};
        emu_thread(&j);
        if (__atomic_sub_fetch(&emu_pool_left, 1, __ATOMIC_SEQ_CST) == 0) sem_post(&emu_pool_done);
    }
    return NULL;
}
static void emu_run_on_pool(std::function<void()> body, unsigned n, unsigned threads)
{
    if (emu_workers.empty()) sem_init(&emu_pool_done, 0, 0);
    while (emu_workers.size() < threads) {
        emu_worker *w = new emu_worker;
        w->index = (unsigned)emu_workers.size();
        sem_init(&w->go, 0, 0);
        pthread_attr_t a;
        pthread_attr_init(&a);
        pthread_attr_setstacksize(&a, 256 << 10);
        if (pthread_create(&w->th, &a, emu_work, w)) {
            fprintf(stderr, "emu: could not start thread %u of %u\n", w->index, threads);
            exit(2);
        }
        emu_workers.push_back(w);
    }
    emu_pool_body = body, emu_pool_n = n, emu_pool_left = threads;
    for (unsigned t = 0; t < threads; t++) sem_post(&emu_workers[t]->go);
    while (sem_wait(&emu_pool_done) != 0) {}
}
/* A launch's dynamic shared memory (`extern __shared__`, its third launch argument): the block's
 * threads share it, and it starts each launch as garbage (all bits set: NaN for floats), as on a GPU
 * nothing clears it. */
static std::vector<unsigned char> emu_dynamic_buffer[EMU_SLOTS];
static unsigned char *emu_dynamic_base[EMU_SLOTS];
static size_t emu_dynamic_bytes;
#define emu_dynamic_shared (emu_dynamic_base[emu_slot])
/* A block's start: its shared memory, static and dynamic, garbage again. */
static void emu_poison_shared(unsigned slot)
{
    unsigned n = emu_shared_count < 256 ? emu_shared_count : 256;
    for (unsigned k = 0; k < n; k++) memset(emu_shared_list[k].base + slot * emu_shared_list[k].each, 0xff, emu_shared_list[k].each);
    if (emu_dynamic_bytes) memset(emu_dynamic_base[slot], 0xff, emu_dynamic_bytes);
}
/* A checker's own test of each launch (lab 07's: the 48 KB dynamic shared-memory opt-in), or none:
 * false skips the launch, as a GPU refuses one. */
static bool (*emu_launch_check)(size_t shared_bytes);
static void emu_launch(dim3 g, dim3 b, std::function<void()> body, size_t shared_bytes = 0)
{
    emu_launches++;
    emu_progress();
    emu_dynamic_bytes = shared_bytes;
    for (unsigned s = 0; s < EMU_SLOTS; s++) {
        emu_dynamic_buffer[s].assign(shared_bytes + 64, 0xff);
        emu_dynamic_base[s] = emu_dynamic_buffer[s].data() + (64 - (uintptr_t)emu_dynamic_buffer[s].data() % 64) % 64;
    }
    if (shared_bytes > 227 * 1024) {
        fprintf(stderr, "emu: %zu bytes of dynamic shared memory: more than a block may have (227 KiB on Hopper)\n", shared_bytes);
        return;
    }
    if (emu_launch_check && !emu_launch_check(shared_bytes)) return;
    gridDim = g, blockDim = b;
    unsigned n = b.x * b.y * b.z;
    if (g.x == 0 || g.y == 0 || g.z == 0 || n == 0 || n > 1024 || g.y > 65535 || g.z > 65535) {
        fprintf(stderr, "emu: invalid launch configuration (%u %u %u) x (%u %u %u)\n", g.x, g.y, g.z, b.x, b.y, b.z);
        return;
    }
    /* the blocks' order: a shuffle seeded by the run's seed and the launch's number */
    size_t blocks = (size_t)g.x * g.y * g.z;
    emu_order.resize(blocks);
    for (size_t i = 0; i < blocks; i++) emu_order[i] = (unsigned)i;
    uint64_t x = ((uint64_t)emu_seed << 32 | (unsigned)emu_launches) * 0x9e3779b97f4a7c15ull + 1;
    for (size_t i = blocks; i > 1; i--) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        std::swap(emu_order[i - 1], emu_order[x % i]);
    }
    unsigned slots = blocks < emu_slots ? (unsigned)blocks : emu_slots;
    emu_slots_now = slots;
    emu_next = 0;
    for (unsigned s = 0; s < slots; s++) {
        pthread_barrier_init(&emu_block_barrier[s], NULL, n);
        pthread_barrier_init(&emu_end_barrier[s], NULL, n);
        for (unsigned w = 0; w < (n + 31) / 32; w++)
            pthread_barrier_init(&emu_warp_barrier[s][w], NULL, n - 32 * w < 32 ? n - 32 * w : 32);
    }
    emu_run_on_pool(body, n, n * slots);
    for (unsigned s = 0; s < slots; s++) {
        pthread_barrier_destroy(&emu_block_barrier[s]);
        pthread_barrier_destroy(&emu_end_barrier[s]);
        for (unsigned w = 0; w < (n + 31) / 32; w++) pthread_barrier_destroy(&emu_warp_barrier[s][w]);
    }
}
#ifndef EMU_STREAMS
/* A launch's stream (cu2cpp.py passes it, 0 where none is given): ignored, the kernel runs now; a
 * stream layer (emu_streams.h, lab 05) queues the launch on its stream instead. */
template <class S> static inline void emu_launch(dim3 g, dim3 b, std::function<void()> body, size_t shared_bytes, S)
{
    emu_launch(g, b, body, shared_bytes);
}
#endif
