/* softmax.cu - lab 09, the reference: the softmax of each row, four ways. See handouts/09-softmax.md.
 *
 * in and out are m x n, row-major floats on the device. Every kernel handles any m and n and
 * subtracts the row's maximum before exp (inputs reach 90; expf overflows above 88.7). exp is
 * CUDA's fast __expf: the grader's bound allows its error (grading/09-softmax/lab.c). */
#include "softmax.h"

#include <cfloat>
#include <cooperative_groups.h>
#include <cuda_runtime.h>

/* A kernel's cluster of blocks (Hopper, sm_90 and later): compiled in only there, and not for
 * `make emulate`, which runs no cluster (has_clusters says no there). */
#if defined(__CUDACC__) && (!defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900)
#define CLUSTER_OF(n) __cluster_dims__(n, 1, 1)
#else
#define CLUSTER_OF(n)
#endif

namespace {

constexpr int WARP = 32;
constexpr unsigned FULL = 0xffffffffu;

__device__ float warp_max(float v)
{
    for (int d = WARP / 2; d > 0; d /= 2) v = fmaxf(v, __shfl_xor_sync(FULL, v, d));
    return v;
}

__device__ float warp_sum(float v)
{
    for (int d = WARP / 2; d > 0; d /= 2) v += __shfl_xor_sync(FULL, v, d);
    return v;
}

/* A block's reduction through shared memory: each warp reduces, warp 0 reduces the warps' values,
 * and every thread gets the result. `op` is warp_max or warp_sum; `none` its identity. */
template <float (*op)(float)>
__device__ float block_reduce(float v, float none)
{
    __shared__ float part[WARP], result;
    int lane = threadIdx.x % WARP, w = threadIdx.x / WARP, warps = blockDim.x / WARP;
    v = op(v);
    if (lane == 0) part[w] = v;
    __syncthreads();
    if (w == 0) {
        v = op(lane < warps ? part[lane] : none);
        if (lane == 0) result = v;
    }
    __syncthreads();
    v = result;
    __syncthreads(); /* part and result are reused by the next reduction */
    return v;
}

/* Stage 1: block i owns row i; three strided passes over it (the second and third from L2 or L1). */
__global__ void three_pass_kernel(int n, const float *__restrict__ in, float *__restrict__ out)
{
    const float *x = in + (size_t)blockIdx.x * n;
    float *y = out + (size_t)blockIdx.x * n;
    float m = -FLT_MAX;
    for (int j = threadIdx.x; j < n; j += blockDim.x) m = fmaxf(m, x[j]);
    m = block_reduce<warp_max>(m, -FLT_MAX);
    float s = 0;
    for (int j = threadIdx.x; j < n; j += blockDim.x) s += __expf(x[j] - m);
    s = block_reduce<warp_sum>(s, 0.0f);
    float r = 1.0f / s;
    for (int j = threadIdx.x; j < n; j += blockDim.x) y[j] = __expf(x[j] - m) * r;
}

/* Stages 2 and 3: warp w of the grid owns row w. */
__device__ int warp_row() { return (int)((blockIdx.x * (size_t)blockDim.x + threadIdx.x) / WARP); }

__global__ void warp_kernel(int m, int n, const float *__restrict__ in, float *__restrict__ out)
{
    int row = warp_row(), lane = threadIdx.x % WARP;
    if (row >= m) return; /* a whole warp leaves: the shuffles below see full warps */
    const float *x = in + (size_t)row * n;
    float *y = out + (size_t)row * n;
    float mx = -FLT_MAX;
    for (int j = lane; j < n; j += WARP) mx = fmaxf(mx, x[j]);
    mx = warp_max(mx);
    float s = 0;
    for (int j = lane; j < n; j += WARP) s += __expf(x[j] - mx);
    float r = 1.0f / warp_sum(s);
    for (int j = lane; j < n; j += WARP) y[j] = __expf(x[j] - mx) * r;
}

/* Online: each lane keeps the largest value it has seen, mx, and the sum of exp(x - mx) over what
 * it has seen; when mx grows, the sum so far is rescaled by exp(old - new). Two lanes' (mx, s)
 * combine the same way. One read for both, then one more to write. */
__device__ void online_add(float &mx, float &s, float x)
{
    if (x > mx) s = s * __expf(mx - x) + 1.0f, mx = x;
    else s += __expf(x - mx);
}

/* Two (max, sum) pairs as one: each sum rescaled to the larger maximum (an empty sum stays 0). */
__device__ void online_merge(float &mx, float &s, float m2, float s2)
{
    float top = fmaxf(mx, m2);
    s = (s == 0 ? 0 : s * __expf(mx - top)) + (s2 == 0 ? 0 : s2 * __expf(m2 - top));
    mx = top;
}

/* The warp's (mx, s) pairs merged: every lane ends with the warp's. */
__device__ void online_warp(float &mx, float &s)
{
    for (int d = WARP / 2; d > 0; d /= 2) online_merge(mx, s, __shfl_xor_sync(FULL, mx, d), __shfl_xor_sync(FULL, s, d));
}

__device__ void online_row(int n, const float *__restrict__ x, float *__restrict__ y, int lane)
{
    float mx = -FLT_MAX, s = 0;
    for (int j = lane; j < n; j += WARP) online_add(mx, s, x[j]);
    online_warp(mx, s);
    float r = 1.0f / s;
    for (int j = lane; j < n; j += WARP) y[j] = __expf(x[j] - mx) * r;
}

__global__ void online_kernel(int m, int n, const float *__restrict__ in, float *__restrict__ out)
{
    int row = warp_row();
    if (row < m) online_row(n, in + (size_t)row * n, out + (size_t)row * n, threadIdx.x % WARP);
}

/* Few long rows (a warp a row would leave most SMs idle: 64 rows are 64 warps): each row cut into
 * chunks of SPLIT_CHUNK, a block a chunk. The first kernel leaves each chunk's (max, sum) in
 * split_partials; the second merges its row's pairs, then writes its chunk. Two reads of the input
 * still, but from every SM. */
constexpr int SPLIT_CHUNK = 8192, SPLIT_MAX = 1 << 20; /* pairs in split_partials: m x chunks at most */
__device__ float2 split_partials[SPLIT_MAX];

/* The block's (mx, s) pairs merged, in every thread (blockDim.x a multiple of 32, at most 1024). */
__device__ void online_block(float &mx, float &s)
{
    __shared__ float2 part[WARP];
    int lane = threadIdx.x % WARP, w = threadIdx.x / WARP, warps = blockDim.x / WARP;
    online_warp(mx, s);
    if (lane == 0) part[w] = make_float2(mx, s);
    __syncthreads();
    float2 p = lane < warps ? part[lane] : make_float2(-FLT_MAX, 0.0f);
    mx = p.x, s = p.y;
    online_warp(mx, s); /* every warp merges the warps' pairs: no second barrier to hand them out */
    __syncthreads(); /* part is reused by a later call */
}

__global__ void split_partial_kernel(int n, int chunks, const float *__restrict__ in)
{
    int row = blockIdx.y, c = blockIdx.x, end = min(n, (c + 1) * SPLIT_CHUNK);
    const float *x = in + (size_t)row * n;
    float mx = -FLT_MAX, s = 0;
    for (int j = c * SPLIT_CHUNK + threadIdx.x; j < end; j += blockDim.x) online_add(mx, s, x[j]);
    online_block(mx, s);
    if (threadIdx.x == 0) split_partials[(size_t)row * chunks + c] = make_float2(mx, s);
}

__global__ void split_write_kernel(int n, int chunks, const float *__restrict__ in, float *__restrict__ out)
{
    int row = blockIdx.y, c = blockIdx.x, end = min(n, (c + 1) * SPLIT_CHUNK);
    float mx = -FLT_MAX, s = 0;
    for (int k = threadIdx.x; k < chunks; k += blockDim.x) {
        float2 p = split_partials[(size_t)row * chunks + k];
        online_merge(mx, s, p.x, p.y);
    }
    online_block(mx, s);
    const float *x = in + (size_t)row * n;
    float *y = out + (size_t)row * n, r = 1.0f / s;
    for (int j = c * SPLIT_CHUNK + threadIdx.x; j < end; j += blockDim.x) y[j] = __expf(x[j] - mx) * r;
}

/* Stage 4: a row of up to 32 * K elements in K registers a lane: one read, one write. The loops
 * unroll fully (K is a constant), so v[] stays in registers. */
template <int K>
__global__ void registers_kernel(int m, int n, const float *__restrict__ in, float *__restrict__ out)
{
    int row = warp_row(), lane = threadIdx.x % WARP;
    if (row >= m) return;
    const float *x = in + (size_t)row * n;
    float *y = out + (size_t)row * n, v[K], mx = -FLT_MAX, s = 0;
#pragma unroll
    for (int k = 0; k < K; k++) {
        int j = lane + k * WARP;
        v[k] = j < n ? x[j] : -FLT_MAX;
        mx = fmaxf(mx, v[k]);
    }
    mx = warp_max(mx);
#pragma unroll
    for (int k = 0; k < K; k++) {
        v[k] = lane + k * WARP < n ? __expf(v[k] - mx) : 0.0f;
        s += v[k];
    }
    float r = 1.0f / warp_sum(s);
#pragma unroll
    for (int k = 0; k < K; k++)
        if (lane + k * WARP < n) y[lane + k * WARP] = v[k] * r;
}

/* Short rows (n <= 32): G lanes a row, 32 / G rows a warp, 4 values a lane, reduced over the G
 * lanes of the row (xor shuffles below G stay inside the group). A warp a row would spend its 32
 * lanes and ten shuffles on 128 bytes: 62% of copy bandwidth at 2^21 x 32 on an H100. */
template <int G>
__global__ void short_rows_kernel(int m, int n, const float *__restrict__ in, float *__restrict__ out)
{
    int lane = threadIdx.x % WARP, g = lane % G;
    size_t row = (blockIdx.x * (size_t)blockDim.x + threadIdx.x) / G; /* a group's rows end together */
    if (row >= (size_t)m) row = m - 1; /* the warp's last group repeats a row, so shuffles see full warps */
    const float *x = in + row * n;
    float v[4], mx = -FLT_MAX, s = 0;
#pragma unroll
    for (int k = 0; k < 4; k++) {
        int j = g + k * G;
        v[k] = j < n ? x[j] : -FLT_MAX;
        mx = fmaxf(mx, v[k]);
    }
    for (int d = G / 2; d > 0; d /= 2) mx = fmaxf(mx, __shfl_xor_sync(FULL, mx, d));
#pragma unroll
    for (int k = 0; k < 4; k++) {
        v[k] = g + k * G < n ? __expf(v[k] - mx) : 0.0f;
        s += v[k];
    }
    for (int d = G / 2; d > 0; d /= 2) s += __shfl_xor_sync(FULL, s, d);
    float r = 1.0f / s, *y = out + row * n;
    bool mine = (blockIdx.x * (size_t)blockDim.x + threadIdx.x) / G < (size_t)m; /* not a repeated row */
#pragma unroll
    for (int k = 0; k < 4; k++)
        if (mine && g + k * G < n) y[g + k * G] = v[k] * r;
}

/* Rows of 1025 to 8192: a block of 256 threads a row, K values a thread in registers (a warp a row
 * would need up to 256 registers a lane), reduced across the block. One read, one write. */
template <int K>
__global__ void block_registers_kernel(int n, const float *__restrict__ in, float *__restrict__ out)
{
    const float *x = in + (size_t)blockIdx.x * n;
    float *y = out + (size_t)blockIdx.x * n, v[K], mx = -FLT_MAX, s = 0;
#pragma unroll
    for (int k = 0; k < K; k++) {
        int j = threadIdx.x + k * blockDim.x;
        v[k] = j < n ? x[j] : -FLT_MAX;
        mx = fmaxf(mx, v[k]);
    }
    mx = block_reduce<warp_max>(mx, -FLT_MAX);
#pragma unroll
    for (int k = 0; k < K; k++) {
        v[k] = threadIdx.x + k * blockDim.x < n ? __expf(v[k] - mx) : 0.0f;
        s += v[k];
    }
    float r = 1.0f / block_reduce<warp_sum>(s, 0.0f);
#pragma unroll
    for (int k = 0; k < K; k++)
        if (threadIdx.x + k * blockDim.x < n) y[threadIdx.x + k * blockDim.x] = v[k] * r;
}

/* A thread's values, one float or four (a 16-byte load), for the kernels below that take either:
 * their largest; exp(v - mx) in place, and their sum; scaled by r; what a load past the row gives. */
__device__ float most(float v) { return v; }
__device__ float most(float4 v) { return fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w)); }
__device__ float exp_in_place(float &v, float mx) { return v = __expf(v - mx); }
__device__ float exp_in_place(float4 &v, float mx)
{
    v = make_float4(__expf(v.x - mx), __expf(v.y - mx), __expf(v.z - mx), __expf(v.w - mx));
    return (v.x + v.y) + (v.z + v.w);
}
__device__ float scaled(float v, float r) { return v * r; }
__device__ float4 scaled(float4 v, float r) { return make_float4(v.x * r, v.y * r, v.z * r, v.w * r); }
template <typename V> __device__ V lowest();
template <> __device__ float lowest<float>() { return -FLT_MAX; }
template <> __device__ float4 lowest<float4>() { return make_float4(-FLT_MAX, -FLT_MAX, -FLT_MAX, -FLT_MAX); }

/* A block's slice [lo, hi) of a row, K values a thread strided by the block's T threads, into v:
 * the slice's maximum (mx) and the sum of exp(v - mx) (s), in every thread; v then holds the
 * exponentials. And the slice written from them, each scaled by `scale`. */
template <int K, int T, typename V>
__device__ void slice_in_registers(const V *__restrict__ x, int lo, int hi, V (&v)[K], float &mx, float &s)
{
    mx = -FLT_MAX, s = 0;
#pragma unroll
    for (int k = 0; k < K; k++) {
        int j = lo + (int)threadIdx.x + k * T;
        v[k] = j < hi ? x[j] : lowest<V>();
        mx = fmaxf(mx, most(v[k]));
    }
    mx = block_reduce<warp_max>(mx, -FLT_MAX);
#pragma unroll
    for (int k = 0; k < K; k++)
        if (lo + (int)threadIdx.x + k * T < hi) s += exp_in_place(v[k], mx);
    s = block_reduce<warp_sum>(s, 0.0f);
}

template <int K, int T, typename V>
__device__ void slice_written(V *__restrict__ y, int lo, int hi, const V (&v)[K], float scale)
{
#pragma unroll
    for (int k = 0; k < K; k++) {
        int j = lo + (int)threadIdx.x + k * T;
        if (j < hi) y[j] = scaled(v[k], scale);
    }
}

constexpr int CLUSTER_THREADS = 256;

/* Rows of 8193 to 65536 on Hopper: a row split over a cluster of CS blocks on neighbouring SMs,
 * each holding its slice in registers as block_registers_kernel does (8192 values at most), read as
 * V: float4 where n is a multiple of 4 and the pointers 16-byte aligned, else float. The blocks'
 * (max, sum) pairs are merged through distributed shared memory: one read, one write, and CS SMs a
 * row (the two-kernel split reads the row twice; a block a row leaves 32 values a thread too few).
 * On an H200 this read 93% of copy bandwidth at 4096 x 16384 and 84% at 1024 x 65536 (74% in make
 * bench), where a block a row and the two-read split had read 55% and 39%; with 4-byte loads only,
 * 52% at 1024 x 65536 (docs/BENCHMARKS.md, the thirtieth session). */
template <int CS, typename V>
__global__ void CLUSTER_OF(CS) __launch_bounds__(CLUSTER_THREADS)
    cluster_registers_kernel(int n, const float *__restrict__ in, float *__restrict__ out)
{
#if __CUDA_ARCH__ >= 900
    namespace cg = cooperative_groups;
    constexpr int W = sizeof(V) / sizeof(float), K = 32 / W; /* 32 floats a thread */
    cg::cluster_group cluster = cg::this_cluster();
    const size_t row = blockIdx.x / CS;
    const V *x = reinterpret_cast<const V *>(in + row * n);
    V *y = reinterpret_cast<V *>(out + row * n), v[K];
    const int nv = n / W, per = (nv + CS - 1) / CS, lo = (int)cluster.block_rank() * per, hi = min(nv, lo + per);
    float mx, s;
    slice_in_registers<K, CLUSTER_THREADS>(x, lo, hi, v, mx, s);
    __shared__ float2 pair; /* this block's, read by the others */
    if (threadIdx.x == 0) pair = make_float2(mx, s);
    cluster.sync();
    float M = -FLT_MAX, S = 0;
    for (int r = 0; r < CS; r++) {
        float2 p = *cluster.map_shared_rank(&pair, r);
        online_merge(M, S, p.x, p.y);
    }
    cluster.sync(); /* no block ends while another still reads its pair */
    slice_written<K, CLUSTER_THREADS>(y, lo, hi, v, __expf(mx - M) / S);
#endif
}

/* A row of n <= 8192 CS floats over a cluster of CS blocks: 16-byte loads where they are allowed. */
template <int CS> void cluster_registers(int m, int n, const float *in, float *out)
{
    if (n % 4 == 0 && ((size_t)in | (size_t)out) % 16 == 0)
        cluster_registers_kernel<CS, float4><<<(unsigned)m * CS, CLUSTER_THREADS>>>(n, in, out);
    else cluster_registers_kernel<CS, float><<<(unsigned)m * CS, CLUSTER_THREADS>>>(n, in, out);
}

/* Rows longer than a cluster holds (past 65536): the row cut into chunks of CHUNK floats, a block a
 * chunk, each held in registers as above. A block publishes its chunk's (max, sum) pair, waits until
 * every block of its row has published, merges the row's pairs and writes its chunk from registers:
 * one read and one write, on every SM (the two-kernel split reads the row twice).
 *
 * A block waits on blocks after it, so a row's blocks must be resident together. A block takes its
 * chunk from a counter when it starts (never from blockIdx.x), so the blocks that have started are
 * the first tickets: every row but the last started one has all its blocks running, and those rows
 * finish. The last one finishes too while a row has fewer blocks than the GPU holds at once, and
 * row_chunks_fit allows half that. The pairs are left zeroed, and the counters at zero, by the last
 * block out of each row and of the grid, for the next call. */
constexpr int CHUNK_THREADS = 256, CHUNK_FLOATS = 32; /* floats a thread */
constexpr int CHUNK_PAIRS = 1 << 20, CHUNK_ROWS = CHUNK_PAIRS / 8;
__device__ unsigned long long chunk_pair[CHUNK_PAIRS]; /* (max, sum) of a chunk; a sum is >= 1, so 0 is "not yet" */
__device__ unsigned chunk_rows_done[CHUNK_ROWS];       /* blocks of the row done reading its pairs */
__device__ unsigned chunk_ticket, chunk_blocks_done;

/* This block's piece: the next from the counter, in every thread. */
__device__ unsigned take_ticket()
{
    __shared__ unsigned ticket;
    if (threadIdx.x == 0) ticket = atomicAdd(&chunk_ticket, 1u);
    __syncthreads();
    return ticket;
}

/* Piece c's pair published, then the pairs of all `chunks` pieces of the row merged, in every
 * thread, once each has arrived. The last block of the row to merge leaves them zeroed, and the
 * last of the grid the counters. */
__device__ void merge_row_pairs(size_t row, int chunks, unsigned c, float mx, float s, float &M, float &S)
{
    volatile unsigned long long *pairs = chunk_pair + row * chunks;
    if (threadIdx.x == 0) pairs[c] = (unsigned long long)__float_as_uint(s) << 32 | __float_as_uint(mx);
    M = -FLT_MAX, S = 0;
    for (int k = threadIdx.x; k < chunks; k += blockDim.x) {
        unsigned long long p;
        do p = pairs[k];
        while ((p >> 32) == 0);
        online_merge(M, S, __uint_as_float((unsigned)p), __uint_as_float((unsigned)(p >> 32)));
    }
    online_block(M, S);
    if (threadIdx.x == 0 && atomicAdd(&chunk_rows_done[row], 1u) == (unsigned)chunks - 1) {
        for (int k = 0; k < chunks; k++) pairs[k] = 0; /* every block of the row has read them */
        chunk_rows_done[row] = 0;
        if (atomicAdd(&chunk_blocks_done, (unsigned)chunks) == gridDim.x - chunks) /* the grid's last row */
            chunk_ticket = 0, chunk_blocks_done = 0;
    }
}

template <typename V, int F = CHUNK_FLOATS>
__global__ void __launch_bounds__(CHUNK_THREADS) row_chunks_kernel(int n, int chunks, const float *__restrict__ in,
                                                                   float *__restrict__ out)
{
    constexpr int W = sizeof(V) / sizeof(float), K = F / W, CHUNK = CHUNK_THREADS * F;
    const unsigned ticket = take_ticket(), c = ticket % chunks;
    const size_t row = ticket / chunks;
    const V *x = reinterpret_cast<const V *>(in + row * n);
    V *y = reinterpret_cast<V *>(out + row * n), v[K];
    const int nv = n / W, lo = (int)c * (CHUNK / W), hi = min(nv, lo + CHUNK / W);
    float mx, s, M, S;
    slice_in_registers<K, CHUNK_THREADS>(x, lo, hi, v, mx, s);
    merge_row_pairs(row, chunks, c, mx, s, M, S);
    slice_written<K, CHUNK_THREADS>(y, lo, hi, v, __expf(mx - M) / S);
}

/* Whether rows of n may take row_chunks_kernel: its pairs fit, and a row's blocks are at most half
 * of those the GPU holds at once (the occupancy of the kernel, asked once). Never under `make
 * emulate`, whose blocks do not all run at once. */
template <int F = CHUNK_FLOATS> bool row_chunks_fit(int m, int n)
{
    constexpr int CHUNK = CHUNK_THREADS * F;
#ifndef __CUDACC__
    return false;
#endif
    static long resident = -1;
    if (resident < 0) {
        int dev = 0, sms = 0, per_sm = 0;
        resident = cudaGetDevice(&dev) == cudaSuccess &&
                           cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) == cudaSuccess &&
                           cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, row_chunks_kernel<float, F>,
                                                                         CHUNK_THREADS, 0) == cudaSuccess
                       ? (long)sms * per_sm
                       : 0;
    }
    long chunks = (n + CHUNK - 1) / CHUNK;
    return 2 * chunks <= resident && (long)m * chunks <= CHUNK_PAIRS && m <= CHUNK_ROWS;
}

template <int F = CHUNK_FLOATS> void row_chunks(int m, int n, const float *in, float *out)
{
    constexpr int CHUNK = CHUNK_THREADS * F;
    int chunks = (n + CHUNK - 1) / CHUNK;
    unsigned blocks = (unsigned)m * (unsigned)chunks;
    if (n % 4 == 0 && ((size_t)in | (size_t)out) % 16 == 0)
        row_chunks_kernel<float4, F><<<blocks, CHUNK_THREADS>>>(n, chunks, in, out);
    else row_chunks_kernel<float, F><<<blocks, CHUNK_THREADS>>>(n, chunks, in, out);
}

/* Whether this GPU runs clusters (compute capability 9 or more), asked once. */
bool has_clusters()
{
#ifndef __CUDACC__
    return false;
#endif
    static int major = -1;
    int dev = 0;
    if (major < 0 && (cudaGetDevice(&dev) != cudaSuccess ||
                      cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess))
        major = 0;
    return major >= 9;
}

constexpr int THREADS = 256; /* 8 warps a block, a row each in stages 2 to 4 */

unsigned warp_blocks(int m) { return (unsigned)(((size_t)m * WARP + THREADS - 1) / THREADS); }

/* A warp a row, or for few long rows (fewer than 4096 rows of 16384 or more: too few warps to
 * keep every SM streaming) a row split over blocks. */
void online_any(int m, int n, const float *in, float *out)
{
    int chunks = (n + SPLIT_CHUNK - 1) / SPLIT_CHUNK;
    if (m < 4096 && n >= 2 * SPLIT_CHUNK && (size_t)m * chunks <= SPLIT_MAX) {
        dim3 grid((unsigned)chunks, (unsigned)m);
        split_partial_kernel<<<grid, THREADS>>>(n, chunks, in);
        split_write_kernel<<<grid, THREADS>>>(n, chunks, in, out);
    } else online_kernel<<<warp_blocks(m), THREADS>>>(m, n, in, out);
}

} // namespace

extern "C" void softmax_three_pass(int m, int n, const float *in, float *out)
{
    three_pass_kernel<<<m, THREADS>>>(n, in, out);
}

extern "C" void softmax_warp(int m, int n, const float *in, float *out)
{
    warp_kernel<<<warp_blocks(m), THREADS>>>(m, n, in, out);
}

extern "C" void softmax_online(int m, int n, const float *in, float *out) { online_any(m, n, in, out); }

extern "C" void softmax_registers(int m, int n, const float *in, float *out)
{
    unsigned blocks = warp_blocks(m);
    unsigned grouped = (unsigned)(((size_t)m * 8 + THREADS - 1) / THREADS); /* 8 lanes a row */
    if (n <= 4) short_rows_kernel<1><<<(unsigned)(((size_t)m + THREADS - 1) / THREADS), THREADS>>>(m, n, in, out);
    else if (n <= 8) short_rows_kernel<2><<<(unsigned)(((size_t)m * 2 + THREADS - 1) / THREADS), THREADS>>>(m, n, in, out);
    else if (n <= 16) short_rows_kernel<4><<<(unsigned)(((size_t)m * 4 + THREADS - 1) / THREADS), THREADS>>>(m, n, in, out);
    else if (n <= 32) short_rows_kernel<8><<<grouped, THREADS>>>(m, n, in, out);
    else if (n <= 64) registers_kernel<2><<<blocks, THREADS>>>(m, n, in, out);
    else if (n <= 128) registers_kernel<4><<<blocks, THREADS>>>(m, n, in, out);
    else if (n <= 256) registers_kernel<8><<<blocks, THREADS>>>(m, n, in, out);
    else if (n <= 512) registers_kernel<16><<<blocks, THREADS>>>(m, n, in, out);
    else if (n <= 1024) registers_kernel<32><<<blocks, THREADS>>>(m, n, in, out);
    else if (n <= 2048) block_registers_kernel<8><<<m, THREADS>>>(n, in, out);
    else if (n <= 4096) block_registers_kernel<16><<<m, THREADS>>>(n, in, out);
    else if (n <= 8192) block_registers_kernel<32><<<m, THREADS>>>(n, in, out);
    else if (n <= 16384 && has_clusters()) cluster_registers<2>(m, n, in, out);
    else if (n <= 32768 && has_clusters()) cluster_registers<4>(m, n, in, out);
    else if (n <= 65536 && has_clusters()) cluster_registers<8>(m, n, in, out);
    else if (row_chunks_fit(m, n)) row_chunks(m, n, in, out);
    else online_any(m, n, in, out); /* rows too long for the chunks, or no clusters: two reads */
}
