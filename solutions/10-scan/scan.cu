/* scan.cu - lab 10, the reference: the exclusive prefix sum of n ints, five ways. See
 * handouts/10-scan.md.
 *
 * Stages 1-3 are one block of 1024 threads walking the array tile after tile, carrying the
 * running total; they differ only in how the block scans a tile. Stage 4 is three kernels over
 * many blocks (the tiles' totals, their scan, the tiles scanned with their offsets); stage 5 is one
 * kernel whose tiles learn their offsets from their predecessors as they go. Every kernel handles
 * any n from 1; int4 loads and stores are used where the pointers allow them. */
#include "scan.h"

#include <cstdint>
#include <cuda_runtime.h>

namespace {

constexpr int WARP = 32;
constexpr unsigned FULL = 0xffffffffu;

/* Four consecutive ints from element i (i a multiple of 4), zeros past n: one 16-byte load where
 * all four exist and the pointer is 16-byte aligned, else one at a time. */
__device__ int4 load4(const int *in, long long i, int n, bool vec)
{
    if (vec && i + 3 < n) return *reinterpret_cast<const int4 *>(in + i);
    int4 v;
    v.x = i < n ? in[i] : 0;
    v.y = i + 1 < n ? in[i + 1] : 0;
    v.z = i + 2 < n ? in[i + 2] : 0;
    v.w = i + 3 < n ? in[i + 3] : 0;
    return v;
}

__device__ void store4(int *out, long long i, int n, bool vec, int4 v)
{
    if (vec && i + 3 < n) {
        *reinterpret_cast<int4 *>(out + i) = v;
        return;
    }
    if (i < n) out[i] = v.x;
    if (i + 1 < n) out[i + 1] = v.y;
    if (i + 2 < n) out[i + 2] = v.z;
    if (i + 3 < n) out[i + 3] = v.w;
}

/* The exclusive scan of four values, from `start`. */
__device__ int4 exclusive4(int4 v, int start)
{
    int4 e;
    e.x = start;
    e.y = e.x + v.x;
    e.z = e.y + v.y;
    e.w = e.z + v.z;
    return e;
}

bool aligned16(const void *p) { return (reinterpret_cast<uintptr_t>(p) & 15) == 0; }

/* Inclusive scan across a warp: after step d each lane holds the sum of the 2d lanes up to it. */
__device__ int warp_inclusive(int v)
{
    int lane = threadIdx.x % WARP;
    for (int d = 1; d < WARP; d *= 2) {
        int up = __shfl_up_sync(FULL, v, d);
        if (lane >= d) v += up;
    }
    return v;
}

/* ---------------------------------------------------------------- stages 1-3: one block */

constexpr int ONE = 1024; /* the block's threads */

/* Stage 1's tile scan: Hillis-Steele over the block's 1024 values (one a thread), two buffers so
 * that no step reads a value the same step overwrites. Returns the thread's exclusive prefix;
 * *total gets the tile's sum. log2(1024) = 10 steps, 10 x 1024 adds where 1023 would do. */
__device__ int hillis_steele_block(int x, int *total)
{
    __shared__ int buf[2][ONE];
    int t = threadIdx.x, cur = 0;
    buf[0][t] = x;
    __syncthreads();
    for (int d = 1; d < ONE; d *= 2) {
        int v = buf[cur][t] + (t >= d ? buf[cur][t - d] : 0);
        buf[1 - cur][t] = v;
        cur = 1 - cur;
        __syncthreads();
    }
    int inclusive = buf[cur][t];
    *total = buf[cur][ONE - 1];
    __syncthreads(); /* the buffers are free for the next tile */
    return inclusive - x;
}

/* Stage 3's tile scan: each warp scans its 32 values by shuffles, warp 0 scans the 32 warps'
 * totals the same way, and every thread adds its warp's offset. Three barriers a tile, where
 * Hillis-Steele needs eleven. */
__device__ int warp_block(int x, int *total)
{
    __shared__ int warp_off[ONE / WARP], tile_total;
    int lane = threadIdx.x % WARP, w = threadIdx.x / WARP;
    int inclusive = warp_inclusive(x);
    if (lane == WARP - 1) warp_off[w] = inclusive;
    __syncthreads();
    if (w == 0) {
        int mine = warp_off[lane], upto = warp_inclusive(mine);
        warp_off[lane] = upto - mine; /* each warp's offset in the tile */
        if (lane == WARP - 1) tile_total = upto;
    }
    __syncthreads();
    int result = warp_off[w] + inclusive - x;
    *total = tile_total;
    __syncthreads(); /* warp_off and tile_total are free for the next tile */
    return result;
}

/* Stages 1 and 3: one block; each thread scans four consecutive ints of a 4096-int tile in
 * registers, the block scans the threads' totals, and the running total carries to the next tile. */
template <int (*block_scan)(int, int *)>
__global__ void __launch_bounds__(ONE) one_block_kernel(const int *in, int *out, int n, bool vec)
{
    int carry = 0;
    for (long long base = 0; base < n; base += 4 * ONE) {
        long long i = base + 4 * threadIdx.x;
        int4 v = load4(in, i, n, vec);
        int total;
        int mine = block_scan(v.x + v.y + v.z + v.w, &total);
        store4(out, i, n, vec, exclusive4(v, carry + mine));
        carry += total;
    }
}

/* Stage 2: the work-efficient scan of a 2048-int tile (two ints a thread) in shared memory. The
 * up-sweep builds partial sums up a tree, the down-sweep pushes prefixes back down: about 2 x 2048
 * adds. Index k is stored at k + k / 32 (one pad a row of 32 banks), so the tree's strided
 * accesses, which would fall on ever fewer banks, spread over all of them. */
constexpr int BL_TILE = 2 * ONE;
__device__ int padded(int k) { return k + k / WARP; }

__global__ void __launch_bounds__(ONE) blelloch_kernel(const int *in, int *out, int n)
{
    __shared__ int s[BL_TILE + BL_TILE / WARP];
    __shared__ int tile_total;
    int t = threadIdx.x, carry = 0;
    for (long long base = 0; base < n; base += BL_TILE) {
        long long a = base + t, b = base + t + ONE; /* coalesced: two halves of the tile */
        int va = a < n ? in[a] : 0, vb = b < n ? in[b] : 0;
        s[padded(t)] = va;
        s[padded(t + ONE)] = vb;
        int offset = 1;
        for (int d = BL_TILE / 2; d > 0; d /= 2, offset *= 2) { /* up-sweep */
            __syncthreads();
            if (t < d) {
                int i = offset * (2 * t + 1) - 1, j = offset * (2 * t + 2) - 1;
                s[padded(j)] += s[padded(i)];
            }
        }
        if (t == 0) {
            tile_total = s[padded(BL_TILE - 1)];
            s[padded(BL_TILE - 1)] = 0;
        }
        for (int d = 1; d < BL_TILE; d *= 2) { /* down-sweep */
            offset /= 2;
            __syncthreads();
            if (t < d) {
                int i = offset * (2 * t + 1) - 1, j = offset * (2 * t + 2) - 1;
                int left = s[padded(i)];
                s[padded(i)] = s[padded(j)];
                s[padded(j)] += left;
            }
        }
        __syncthreads();
        if (a < n) out[a] = carry + s[padded(t)];
        if (b < n) out[b] = carry + s[padded(t + ONE)];
        carry += tile_total;
        __syncthreads(); /* s and tile_total are free for the next tile */
    }
}

/* ---------------------------------------------------------------- stages 4-5: many blocks */

/* A tile of 12288 ints for 256 threads, 48 each: warp w owns ints [1536 w, 1536 w + 1536) of the
 * tile, and its lanes load int4 j (j = 0..11) at 128 j + 4 lane: every load instruction of a warp
 * reads 512 consecutive bytes. Twelve int4s a thread keep 192 bytes a thread in flight: on an H200,
 * timing the kernel alone, that took the look-back from 63% of the copy bandwidth (4 int4s, tiles
 * of 4096) to 74%, with CUB's DeviceScan at 72% in the same run; on an H100 at 2^28 ints, 72% to
 * 82%, CUB 81%. As graded at 2^28 - 1: 81% on the H100, 72% on the H200; at 2^26 on the H200, 70% (docs/BENCHMARKS.md).
 * Thirteen variants tried on the H200 (BENCHMARKS, "The twenty-eighth session") came no closer to a copy. */
constexpr int THREADS = 256, VEC = 12, WARPS = THREADS / WARP, WARP_INTS = WARP * 4 * VEC, TILE = WARPS * WARP_INTS;

struct tile_regs {
    int4 v[VEC];
    int excl[VEC]; /* the exclusive prefix of each int4 within the warp's WARP_INTS */
    int warp_total;
};

__device__ long long elem_at(long long tile, int j)
{
    return tile * TILE + (threadIdx.x / WARP) * WARP_INTS + j * 128 + (threadIdx.x % WARP) * 4;
}

__device__ void load_tile(const int *in, int n, long long tile, bool vec, tile_regs &r)
{
#pragma unroll
    for (int j = 0; j < VEC; j++) r.v[j] = load4(in, elem_at(tile, j), n, vec);
}

/* Each int4's prefix within its warp's ints: VEC warp scans, each carrying the last's total. */
__device__ void scan_in_warp(tile_regs &r)
{
    int running = 0;
#pragma unroll
    for (int j = 0; j < VEC; j++) {
        int x = r.v[j].x + r.v[j].y + r.v[j].z + r.v[j].w, inclusive = warp_inclusive(x);
        r.excl[j] = running + inclusive - x;
        running += __shfl_sync(FULL, inclusive, WARP - 1);
    }
    r.warp_total = running;
}

__device__ void store_tile(int *out, int n, long long tile, bool vec, const tile_regs &r, int offset)
{
#pragma unroll
    for (int j = 0; j < VEC; j++) store4(out, elem_at(tile, j), n, vec, exclusive4(r.v[j], offset + r.excl[j]));
}

/* The block's warps' totals, scanned: warp_off[w] is warp w's offset within the tile, and the
 * tile's total is returned to every thread. */
__device__ int scan_warps(const tile_regs &r, int *warp_off)
{
    int lane = threadIdx.x % WARP, w = threadIdx.x / WARP;
    if (lane == 0) warp_off[w] = r.warp_total;
    __syncthreads();
    int x = lane < WARPS ? warp_off[lane] : 0, inclusive = warp_inclusive(x);
    int total = __shfl_sync(FULL, inclusive, WARPS - 1);
    __syncthreads();
    if (w == 0 && lane < WARPS) warp_off[lane] = inclusive - x;
    __syncthreads();
    return total;
}

/* Stage 4, pass 1: each tile's total. */
__global__ void __launch_bounds__(THREADS) tile_totals(const int *in, int n, int *totals, bool vec)
{
    __shared__ int warp_off[WARPS];
    tile_regs r;
    load_tile(in, n, blockIdx.x, vec, r);
    scan_in_warp(r);
    int total = scan_warps(r, warp_off);
    if (threadIdx.x == 0) totals[blockIdx.x] = total;
}

/* Stage 4, pass 3 (and a whole scan of one tile): each tile scanned, plus its offset. */
__global__ void __launch_bounds__(THREADS) scan_tiles(const int *in, int *out, int n, const int *offsets, bool vec)
{
    __shared__ int warp_off[WARPS];
    tile_regs r;
    load_tile(in, n, blockIdx.x, vec, r);
    scan_in_warp(r);
    scan_warps(r, warp_off);
    store_tile(out, n, blockIdx.x, vec, r, (offsets ? offsets[blockIdx.x] : 0) + warp_off[threadIdx.x / WARP]);
}

/* Scan-then-propagate, as deep as n needs: one tile holds the totals of up to TILE tiles, so two
 * levels cover TILE^2 ints (about 1.5 x 10^8) and 2^28 takes a third. `work` holds each level's totals; in may be out (a level's totals are scanned in place). */
void multiblock(int n, const int *in, int *out, int *work)
{
    bool vec = aligned16(in) && aligned16(out);
    if (n <= TILE) {
        scan_tiles<<<1, THREADS>>>(in, out, n, nullptr, vec);
        return;
    }
    int tiles = (n + TILE - 1) / TILE;
    tile_totals<<<tiles, THREADS>>>(in, n, work, vec);
    multiblock(tiles, work, work, work + tiles);
    scan_tiles<<<tiles, THREADS>>>(in, out, n, work, vec);
}

/* Stage 5: decoupled look-back (Merrill and Garland, 2016). work[0] hands out tile numbers in the
 * order blocks start, so a tile's predecessors are running or done and waiting on them cannot
 * deadlock; from work + 2, one 64-bit state a tile: a flag in the high word (0: nothing yet,
 * 1: its total, 2: its inclusive prefix) and the value in the low word, written in one store so
 * that no reader sees a flag without its value. */
enum : unsigned { NOTHING = 0, TOTAL = 1, PREFIX = 2 };

__device__ unsigned long long state(unsigned flag, int value)
{
    return (unsigned long long)flag << 32 | (unsigned)value;
}

__global__ void clear_states(int *work, int tiles)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    auto *states = reinterpret_cast<unsigned long long *>(work + 2);
    if (i < tiles) states[i] = state(NOTHING, 0);
    if (i == 0) work[0] = 0;
}

/* Warp 0 of tile `tile` finds the sum of every int before the tile: lane l reads the state of tile
 * tile - 1 - l (a window of 32 predecessors), waits while any of them has published nothing, then
 * adds the totals from the nearest tile up to the first that has its prefix, moving the window
 * back while none has. */
__device__ int look_back(volatile unsigned long long *states, int tile)
{
    int lane = threadIdx.x % WARP, sum = 0;
    for (int last = tile - 1;;) {
        int at = last - lane;
        unsigned long long s;
        do s = at >= 0 ? states[at] : state(PREFIX, 0);
        while (__any_sync(FULL, (unsigned)(s >> 32) == NOTHING));
        unsigned prefixes = __ballot_sync(FULL, (unsigned)(s >> 32) == PREFIX);
        int stop = prefixes ? __ffs(prefixes) - 1 : WARP; /* the nearest lane with a prefix */
        int x = lane <= stop ? (int)(unsigned)s : 0;
        for (int d = WARP / 2; d > 0; d /= 2) x += __shfl_xor_sync(FULL, x, d);
        sum += x;
        if (prefixes) return sum;
        last -= WARP;
    }
}

/* (The look-back is a template parameter only so that scripts/studies/lookback.cu can time this
 * kernel with other look-backs.) */
template <int (*look)(volatile unsigned long long *, int) = look_back>
__global__ void __launch_bounds__(THREADS) lookback_kernel(const int *in, int *out, int n, int *work, bool vec)
{
    __shared__ int warp_off[WARPS];
    __shared__ int tile_s, before_s;
    if (threadIdx.x == 0) tile_s = atomicAdd(work, 1);
    __syncthreads();
    int tile = tile_s;
    auto *states = reinterpret_cast<volatile unsigned long long *>(work + 2);
    tile_regs r;
    load_tile(in, n, tile, vec, r);
    scan_in_warp(r);
    int total = scan_warps(r, warp_off);
    if (threadIdx.x < WARP) { /* warp 0: publish the total at once, then look back */
        if (threadIdx.x == 0) states[tile] = state(tile == 0 ? PREFIX : TOTAL, total);
        int before = tile == 0 ? 0 : look(states, tile);
        if (threadIdx.x == 0) {
            if (tile > 0) states[tile] = state(PREFIX, before + total);
            before_s = before;
        }
    }
    __syncthreads();
    store_tile(out, n, tile, vec, r, before_s + warp_off[threadIdx.x / WARP]);
}

} // namespace

extern "C" void scan_hillis_steele(int n, const int *in, int *out, int *work)
{
    (void)work;
    one_block_kernel<hillis_steele_block><<<1, ONE>>>(in, out, n, aligned16(in) && aligned16(out));
}

extern "C" void scan_blelloch(int n, const int *in, int *out, int *work)
{
    (void)work;
    blelloch_kernel<<<1, ONE>>>(in, out, n);
}

extern "C" void scan_warp(int n, const int *in, int *out, int *work)
{
    (void)work;
    one_block_kernel<warp_block><<<1, ONE>>>(in, out, n, aligned16(in) && aligned16(out));
}

extern "C" void scan_multiblock(int n, const int *in, int *out, int *work) { multiblock(n, in, out, work); }

extern "C" void scan_lookback(int n, const int *in, int *out, int *work)
{
    int tiles = (n + TILE - 1) / TILE;
    clear_states<<<(tiles + THREADS - 1) / THREADS, THREADS>>>(work, tiles);
    lookback_kernel<look_back><<<tiles, THREADS>>>(in, out, n, work, aligned16(in) && aligned16(out));
}
