/* honest: the textbook's shapes, not the reference's. One int a thread in stages 1 and 3 (no int4),
 * Blelloch on 1024-int tiles with 512 threads, scan-then-add in stage 4 (each tile scanned and
 * written, then its offset added to what was written), and in stage 5 a look-back walked one
 * predecessor at a time by a single thread, over tiles of 8192. A correct submission written
 * differently from the reference: the grader must pass it. */
#include "scan.h"

#include <cuda_runtime.h>

#define T 1024

/* The block's inclusive Hillis-Steele scan of one value a thread (blockDim.x = T). */
static __device__ int hs_inclusive(int x)
{
    __shared__ int a[T], b[T];
    int t = threadIdx.x;
    int *from = a, *to = b;
    a[t] = x;
    __syncthreads();
    for (int d = 1; d < T; d <<= 1) {
        to[t] = from[t] + (t >= d ? from[t - d] : 0);
        __syncthreads();
        int *swap = from;
        from = to, to = swap;
    }
    int r = from[t];
    __syncthreads();
    return r;
}

static __global__ void hs_kernel(int n, const int *in, int *out)
{
    __shared__ int last;
    int carry = 0;
    for (int base = 0; base < n; base += T) {
        int i = base + threadIdx.x, x = i < n ? in[i] : 0, inc = hs_inclusive(x);
        if (i < n) out[i] = carry + inc - x;
        if (threadIdx.x == T - 1) last = inc;
        __syncthreads();
        carry += last;
        __syncthreads();
    }
}

extern "C" void scan_hillis_steele(int n, const int *in, int *out, int *work)
{
    (void)work;
    hs_kernel<<<1, T>>>(n, in, out);
}

/* Blelloch, GPU Gems 3 style: 512 threads, 1024-int tiles, two ints a thread. */
#define BT 512
#define PAD(k) ((k) + ((k) >> 5))
static __global__ void blelloch_kernel(int n, const int *in, int *out)
{
    __shared__ int s[PAD(2 * BT) + 1];
    __shared__ int total;
    int t = threadIdx.x, carry = 0;
    for (int base = 0; base < n; base += 2 * BT) {
        int ia = base + t, ib = base + t + BT;
        s[PAD(t)] = ia < n ? in[ia] : 0;
        s[PAD(t + BT)] = ib < n ? in[ib] : 0;
        int off = 1;
        for (int d = BT; d > 0; d >>= 1) {
            __syncthreads();
            if (t < d) s[PAD(off * (2 * t + 2) - 1)] += s[PAD(off * (2 * t + 1) - 1)];
            off <<= 1;
        }
        if (t == 0) {
            total = s[PAD(2 * BT - 1)];
            s[PAD(2 * BT - 1)] = 0;
        }
        for (int d = 1; d < 2 * BT; d <<= 1) {
            off >>= 1;
            __syncthreads();
            if (t < d) {
                int ai = PAD(off * (2 * t + 1) - 1), bi = PAD(off * (2 * t + 2) - 1);
                int keep = s[ai];
                s[ai] = s[bi];
                s[bi] += keep;
            }
        }
        __syncthreads();
        if (ia < n) out[ia] = carry + s[PAD(t)];
        if (ib < n) out[ib] = carry + s[PAD(t + BT)];
        carry += total;
        __syncthreads();
    }
}

extern "C" void scan_blelloch(int n, const int *in, int *out, int *work)
{
    (void)work;
    blelloch_kernel<<<1, BT>>>(n, in, out);
}

/* Warp shuffles, one int a thread; the block's inclusive scan of x and its total. */
static __device__ int warp_incl(int x)
{
    int lane = threadIdx.x & 31;
    for (int d = 1; d < 32; d <<= 1) {
        int y = __shfl_up_sync(0xffffffffu, x, d);
        if (lane >= d) x += y;
    }
    return x;
}

static __device__ int block_incl(int x, int *total)
{
    __shared__ int sums[32];
    __shared__ int all;
    int lane = threadIdx.x & 31, w = threadIdx.x >> 5, nw = blockDim.x >> 5;
    int inc = warp_incl(x);
    if (lane == 31) sums[w] = inc;
    __syncthreads();
    if (w == 0) {
        int v = lane < nw ? sums[lane] : 0, vi = warp_incl(v);
        sums[lane] = vi - v;
        if (lane == nw - 1) all = vi;
    }
    __syncthreads();
    int r = inc + sums[w];
    *total = all;
    __syncthreads();
    return r;
}

static __global__ void warp_kernel(int n, const int *in, int *out)
{
    int carry = 0;
    for (int base = 0; base < n; base += T) {
        int i = base + threadIdx.x, x = i < n ? in[i] : 0, total, inc = block_incl(x, &total);
        if (i < n) out[i] = carry + inc - x;
        carry += total;
    }
}

extern "C" void scan_warp(int n, const int *in, int *out, int *work)
{
    (void)work;
    warp_kernel<<<1, T>>>(n, in, out);
}

/* Scan-then-add: tiles of 2048 (512 threads, four ints each, consecutive), written scanned with
 * their totals aside; the totals scanned by the same function; the offsets added. */
#define MT 512
#define MTILE (4 * MT)
static __global__ void scan_tile_kernel(long long n, const int *in, int *out, int *totals)
{
    long long i0 = (long long)blockIdx.x * MTILE + 4 * threadIdx.x;
    int v[4], s = 0;
    for (int k = 0; k < 4; k++) v[k] = i0 + k < n ? in[i0 + k] : 0, s += v[k];
    int total, inc = block_incl(s, &total), run = inc - s;
    for (int k = 0; k < 4; k++) {
        if (i0 + k < n) out[i0 + k] = run;
        run += v[k];
    }
    if (totals && threadIdx.x == 0) totals[blockIdx.x] = total;
}

static __global__ void add_kernel(long long n, int *out, const int *offsets)
{
    long long i0 = (long long)blockIdx.x * MTILE + 4 * threadIdx.x;
    int add = offsets[blockIdx.x];
    for (int k = 0; k < 4; k++)
        if (i0 + k < n) out[i0 + k] += add;
}

extern "C" void scan_multiblock(int n, const int *in, int *out, int *work)
{
    int tiles = (n + MTILE - 1) / MTILE;
    scan_tile_kernel<<<tiles, MT>>>(n, in, out, tiles > 1 ? work : NULL);
    if (tiles == 1) return;
    scan_multiblock(tiles, work, work, work + tiles);
    add_kernel<<<tiles, MT>>>(n, out, work);
}

/* Look-back by one thread: tile numbers from a counter in work[0]; then a flag a tile (0 none,
 * 1 total, 2 prefix), its total and its inclusive prefix, each value written before its flag
 * with a fence between. A total, once written, never changes, so a reader that saw flag 1 reads
 * a true total even if the prefix has come since. */
static __global__ void reset_kernel(int *work, int tiles)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= tiles) work[i] = 0; /* the counter and the flags */
}

/* Tiles of 8192 here (16 consecutive ints a thread): the walk is serial, so fewer, longer tiles. */
#define LPT 16
#define LTILE (LPT * MT)
static __global__ void lookback_kernel(long long n, const int *in, int *out, int *work, int tiles)
{
    __shared__ int tile, before;
    if (threadIdx.x == 0) tile = atomicAdd(work, 1);
    __syncthreads();
    volatile int *flag = work + 1, *agg = work + 1 + tiles, *pre = work + 1 + 2 * tiles;
    long long i0 = (long long)tile * LTILE + LPT * threadIdx.x;
    int v[LPT], s = 0;
    for (int k = 0; k < LPT; k++) v[k] = i0 + k < n ? in[i0 + k] : 0, s += v[k];
    int total, inc = block_incl(s, &total);
    if (threadIdx.x == 0) {
        agg[tile] = total;
        pre[tile] = total;
        __threadfence();
        flag[tile] = tile == 0 ? 2 : 1;
        int sum = 0;
        for (int p = tile - 1; p >= 0; p--) {
            int f;
            while ((f = flag[p]) == 0) {
            }
            __threadfence();
            if (f == 2) {
                sum += pre[p];
                break;
            }
            sum += agg[p];
        }
        if (tile > 0) {
            pre[tile] = sum + total;
            __threadfence();
            flag[tile] = 2;
        }
        before = sum;
    }
    __syncthreads();
    int run = before + inc - s;
    for (int k = 0; k < LPT; k++) {
        if (i0 + k < n) out[i0 + k] = run;
        run += v[k];
    }
}

extern "C" void scan_lookback(int n, const int *in, int *out, int *work)
{
    int tiles = (n + LTILE - 1) / LTILE;
    reset_kernel<<<(tiles + 1 + 255) / 256, 256>>>(work, tiles);
    lookback_kernel<<<tiles, MT>>>(n, in, out, work, tiles);
}
