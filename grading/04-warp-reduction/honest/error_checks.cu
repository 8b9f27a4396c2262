/* honest: written the way public CUDA code is, with what that brings into the object: an error-
 * check macro after every call and launch (cudaGetErrorString, then exit), the device's properties
 * read once (cudaGetDeviceProperties, in a function-local static), block sizes from
 * cudaOccupancyMaxPotentialBlockSize (a header template over the occupancy, attribute and device
 * queries), a cudaDeviceSynchronize so that a fault shows at its own stage, and the passes of each
 * multi-pass sum planned on the host in a std::vector (operator new and delete, and the C++
 * runtime's throws and unwinding). The kernels: trees of 256 threads, one warp-shuffle sum shared
 * by every stage after the trees, and one row per thread, per warp (8 rows a block) and per
 * block of 256 threads for matvec.
 * A correct submission written differently from the reference: the grader must pass it, audit
 * included (tests/audit-gpu.sh, and make check's honest variants). */
#include "reduce.h"

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#include <vector>

/* ================================================================ error checks */

/* The call's text, the file and line, and CUDA's words for the error; then stop. */
#define CUDA_CHECK(call)                                                                                  \
    do {                                                                                                  \
        cudaError_t err_ = (call);                                                                        \
        if (err_ != cudaSuccess) {                                                                        \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(err_));      \
            exit(1);                                                                                      \
        }                                                                                                 \
    } while (0)
/* After a launch: a bad configuration is reported at once, a fault in the kernel later. */
#define CUDA_CHECK_LAST() CUDA_CHECK(cudaGetLastError())

/* ================================================================ the device, asked once */

struct device_facts {
    int sms;         /* multiprocessors */
    int max_threads; /* resident threads per multiprocessor */
};

/* cudaGetDeviceProperties reads every property (slow), so it runs once: the static's first use. */
static device_facts query_device()
{
    int id = 0;
    cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDevice(&id));
    CUDA_CHECK(cudaGetDeviceProperties(&prop, id));
    return device_facts{prop.multiProcessorCount, prop.maxThreadsPerMultiProcessor};
}

static const device_facts &device()
{
    static const device_facts facts = query_device();
    return facts;
}

/* The block size the occupancy calculator picks for `kernel` (no dynamic shared memory), at most `cap`. */
template <typename Kernel> static int best_block(Kernel kernel, int cap)
{
    int min_grid = 0, block = 0;
    CUDA_CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, kernel, 0, cap));
    return block > 0 ? block : 256;
}

static int ceil_div(long a, long b) { return (int)((a + b - 1) / b); }

/* ================================================================ vector add */

static __global__ void add_kernel(int n, const float *a, const float *b, float *c)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

extern "C" void vector_add(int n, const float *a, const float *b, float *c)
{
    static const int block = best_block(add_kernel, 1024);
    if (n <= 0) return;
    add_kernel<<<ceil_div(n, block), block>>>(n, a, b, c);
    CUDA_CHECK_LAST();
}

/* ================================================================ the plan of a multi-pass sum */

/* One launch of a multi-pass sum: `count` values from `src` summed into `blocks` partials at `dst`. */
struct pass {
    int count, blocks;
    const float *src;
    float *dst;
};

/* Pass after pass of blocks that each sum `per_block` values, the partials of each pass after the
 * ones it reads in `work` (max(n, 1024) floats: every pass writes fewer than it reads), until one
 * block writes the answer to `out`. */
static std::vector<pass> plan_passes(int n, int per_block, const float *in, float *out, float *work)
{
    std::vector<pass> plan;
    for (;;) {
        int blocks = ceil_div(n, per_block);
        float *dst = blocks == 1 ? out : work;
        plan.push_back(pass{n, blocks, in, dst});
        if (blocks == 1) return plan;
        in = dst;
        work = dst + blocks;
        n = blocks;
    }
}

/* ================================================================ stages 2-4: shared-memory trees */

#define TREE 256 /* threads per block of the trees: a power of two */

enum tree_kind { INTERLEAVED, STRIDED, SEQUENTIAL };

/* Each block sums its TREE inputs (zero past the end) in shared memory, pairing as `K` says. */
template <tree_kind K> static __global__ void __launch_bounds__(TREE) tree_kernel(int n, const float *in, float *out)
{
    __shared__ float s[TREE];
    unsigned t = threadIdx.x;
    long i = (long)blockIdx.x * TREE + t;
    s[t] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned stride = 1; stride < TREE; stride *= 2) {
        if (K == INTERLEAVED && t % (2 * stride) == 0) s[t] += s[t + stride];         /* divergent warps */
        if (K == STRIDED && 2 * stride * t < TREE) s[2 * stride * t] += s[2 * stride * t + stride]; /* bank conflicts */
        if (K == SEQUENTIAL && t < TREE / (2 * stride)) s[t] += s[t + TREE / (2 * stride)]; /* halves */
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}

template <tree_kind K> static void tree_sum(int n, const float *in, float *out, float *work)
{
    for (const pass &p : plan_passes(n, TREE, in, out, work)) {
        tree_kernel<K><<<p.blocks, TREE>>>(p.count, p.src, p.dst);
        CUDA_CHECK_LAST();
    }
}

extern "C" void reduce_interleaved(int n, const float *in, float *out, float *work)
{
    tree_sum<INTERLEAVED>(n, in, out, work);
    /* waits for the passes, so that a fault in them is reported here, in the stage that made it */
    CUDA_CHECK(cudaDeviceSynchronize());
}
extern "C" void reduce_strided(int n, const float *in, float *out, float *work) { tree_sum<STRIDED>(n, in, out, work); }
extern "C" void reduce_sequential(int n, const float *in, float *out, float *work)
{
    tree_sum<SEQUENTIAL>(n, in, out, work);
}

/* ================================================================ stages 5-6: warp shuffles */

/* The sum over a warp, in every lane (butterfly). */
static __device__ float warp_total(float v)
{
    for (int lane_mask = 16; lane_mask > 0; lane_mask /= 2) v += __shfl_xor_sync(0xffffffffu, v, lane_mask);
    return v;
}

/* The sum over the block, in thread 0; blockDim.x a multiple of 32. */
static __device__ float block_total(float v)
{
    __shared__ float per_warp[32];
    unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
    v = warp_total(v);
    if (lane == 0) per_warp[warp] = v;
    __syncthreads();
    if (warp == 0) v = warp_total(lane < warps ? per_warp[lane] : 0.0f);
    return v;
}

#define SHUFFLE 256

static __global__ void shuffle_kernel(int n, const float *in, float *out)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    float v = block_total(i < n ? in[i] : 0.0f);
    if (threadIdx.x == 0) out[blockIdx.x] = v;
}

extern "C" void reduce_shuffle(int n, const float *in, float *out, float *work)
{
    for (const pass &p : plan_passes(n, SHUFFLE, in, out, work)) {
        shuffle_kernel<<<p.blocks, SHUFFLE>>>(p.count, p.src, p.dst);
        CUDA_CHECK_LAST();
    }
}

#define STREAM 512 /* threads per block of the grid-stride sum */

/* A grid-stride loop over float4s, two loads in flight a step; block 0 adds the n % 4 tail. One
 * partial per block. */
static __global__ void __launch_bounds__(STREAM) stream_kernel(int n, const float *in, float *partial)
{
    const float4 *in4 = (const float4 *)in;
    long n4 = n / 4, stride = (long)gridDim.x * blockDim.x, i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    float a = 0.0f, b = 0.0f;
    for (; i + stride < n4; i += 2 * stride) {
        float4 u = in4[i], w = in4[i + stride];
        a += (u.x + u.y) + (u.z + u.w);
        b += (w.x + w.y) + (w.z + w.w);
    }
    if (i < n4) {
        float4 u = in4[i];
        a += (u.x + u.y) + (u.z + u.w);
    }
    if (blockIdx.x == 0 && threadIdx.x < n % 4) b += in[4 * n4 + threadIdx.x];
    float v = block_total(a + b);
    if (threadIdx.x == 0) partial[blockIdx.x] = v;
}

static __global__ void finish_kernel(int count, const float *partial, float *out)
{
    float v = 0.0f;
    for (int i = threadIdx.x; i < count; i += blockDim.x) v += partial[i];
    v = block_total(v);
    if (threadIdx.x == 0) *out = v;
}

extern "C" void reduce_vectorized(int n, const float *in, float *out, float *work)
{
    /* as many blocks as stay resident at once, never more than the work or 1024 (work's size) */
    const device_facts &d = device();
    int blocks = d.sms * (d.max_threads / STREAM), needed = ceil_div(n / 4 + 1, STREAM);
    if (blocks < 1) blocks = 1;
    if (blocks > needed) blocks = needed;
    if (blocks > 1024) blocks = 1024;
    stream_kernel<<<blocks, STREAM>>>(n, in, work);
    CUDA_CHECK_LAST();
    finish_kernel<<<1, 1024>>>(blocks, work, out);
    CUDA_CHECK_LAST();
}

/* ================================================================ stages 7-9: y = A x */

static __device__ double warp_total_d(double v)
{
    for (int lane_mask = 16; lane_mask > 0; lane_mask /= 2) v += __shfl_xor_sync(0xffffffffu, v, lane_mask);
    return v;
}

/* One row per thread. */
static __global__ void row_per_thread(int m, int n, const double *A, const double *x, double *y)
{
    long row = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= m) return;
    const double *a = A + row * n;
    double s = 0.0;
    for (int j = 0; j < n; j++) s += a[j] * x[j];
    y[row] = s;
}

extern "C" void matvec_thread(int m, int n, const double *A, const double *x, double *y)
{
    static const int block = best_block(row_per_thread, 256);
    if (m <= 0) return;
    row_per_thread<<<ceil_div(m, block), block>>>(m, n, A, x, y);
    CUDA_CHECK_LAST();
}

#define ROWS_PER_BLOCK 8 /* warps a block, one row each */

/* One row per warp: consecutive lanes read consecutive doubles, two in flight, then a butterfly. */
static __global__ void __launch_bounds__(32 * ROWS_PER_BLOCK) row_per_warp(int m, int n, const double *A,
                                                                            const double *x, double *y)
{
    long row = (long)blockIdx.x * ROWS_PER_BLOCK + threadIdx.x / 32;
    int lane = threadIdx.x % 32;
    if (row >= m) return; /* a whole warp leaves together */
    const double *a = A + row * n;
    double s0 = 0.0, s1 = 0.0;
    int j = lane;
    for (; j + 32 < n; j += 64) {
        s0 += a[j] * x[j];
        s1 += a[j + 32] * x[j + 32];
    }
    if (j < n) s0 += a[j] * x[j];
    double v = warp_total_d(s0 + s1);
    if (lane == 0) y[row] = v;
}

extern "C" void matvec_warp(int m, int n, const double *A, const double *x, double *y)
{
    if (m <= 0) return;
    row_per_warp<<<ceil_div(m, ROWS_PER_BLOCK), 32 * ROWS_PER_BLOCK>>>(m, n, A, x, y);
    CUDA_CHECK_LAST();
}

#define ROW_THREADS 256

/* One row per block: four loads in flight a thread, warps combined in shared memory. */
static __global__ void __launch_bounds__(ROW_THREADS) row_per_block(int n, const double *A, const double *x, double *y)
{
    __shared__ double per_warp[ROW_THREADS / 32];
    const double *a = A + (long)blockIdx.x * n;
    double s[4] = {0.0, 0.0, 0.0, 0.0};
    int j = threadIdx.x;
    for (; j + 3 * ROW_THREADS < n; j += 4 * ROW_THREADS)
        for (int k = 0; k < 4; k++) s[k] += a[j + k * ROW_THREADS] * x[j + k * ROW_THREADS];
    for (; j < n; j += ROW_THREADS) s[0] += a[j] * x[j];
    double v = warp_total_d((s[0] + s[1]) + (s[2] + s[3]));
    if (threadIdx.x % 32 == 0) per_warp[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x < 32) {
        v = warp_total_d(threadIdx.x < ROW_THREADS / 32 ? per_warp[threadIdx.x] : 0.0);
        if (threadIdx.x == 0) y[blockIdx.x] = v;
    }
}

extern "C" void matvec_block(int m, int n, const double *A, const double *x, double *y)
{
    if (m <= 0) return;
    row_per_block<<<m, ROW_THREADS>>>(n, A, x, y);
    CUDA_CHECK_LAST();
}
