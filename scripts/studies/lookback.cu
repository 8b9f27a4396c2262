// lookback.cu - lab 10's `lookback` across sizes (issue 29): the reference itself (its file is
// included whole), variants of it, CUB's DeviceScan and a copy kernel of the same tiles, each at
// n = 2^20 to 2^28 - 1, timed call by call with the grader's timer (the L2 flushed before each), so
// that a call that stalls shows as a call and not only in a median. Run by scripts/studies/run.sh;
// the findings are in docs/BENCHMARKS.md, "The twenty-eighth session".
//  - `backoff`: the reference with __nanosleep between polls of predecessors that have published
//    nothing (CUB's look-back backs off so).
//  - `near`: waits only on the predecessors nearer than the nearest prefix.
//  - `wide2`, `wide4`: 2 or 4 windows of 32 predecessors read at once.
//  - `prefetch`: a grid of as many blocks as fit at once, each taking tile after tile from the
//    counter; the next tile's int4s are copied into shared memory (cp.async, each thread the ones it
//    will scan) while this tile looks back and stores, so a block waiting on its predecessors still
//    has a load in flight.
//  - `staged6` ... `staged16`: tiles of 6 to 16 int4s a thread held in shared memory instead of
//    registers, so more tiles an SM are in flight (8 blocks an SM for 6).
//  - `warpVxT`: a warp a tile, no barriers.
//  - `no wait`: the reference with no look-back at all (wrong sums): what the rest of it costs.
#include "common.h"
#include "10-scan/scan.cu"
#include <cuda_pipeline.h>
#include <cub/device/device_scan.cuh>

namespace {

/* The look-back variants: K windows of 32 predecessors read at once (lane l, window k: tile - 1 -
 * 32 k - l); NEAR: wait only on the predecessors nearer than the nearest prefix (else, as the
 * reference does, on every one up to the window that has it); BACKOFF: __nanosleep between polls
 * (CUB's look-back backs off so). K = 0: no look-back at all (a control: wrong sums, the speed of
 * the rest of the kernel). */
template <int K, bool NEAR, bool BACKOFF>
__device__ int look_back_variant(volatile unsigned long long *states, int tile)
{
    if (K == 0) return 0;
    constexpr int KW = K > 0 ? K : 1;
    int lane = threadIdx.x % WARP, sum = 0;
    for (int last = tile - 1;;) {
        unsigned long long s[KW];
        int win, at_lane; /* the nearest prefix: window win, lane at_lane (win = KW: none) */
        for (unsigned ns = 32;; ns = ns < 512 ? 2 * ns : ns) {
#pragma unroll
            for (int k = 0; k < KW; k++) {
                int at = last - 32 * k - lane;
                s[k] = at >= 0 ? states[at] : state(PREFIX, 0);
            }
            win = KW, at_lane = WARP;
            bool waiting = false;
#pragma unroll
            for (int k = 0; k < KW; k++) {
                if (win < KW || waiting) break;
                unsigned f = (unsigned)(s[k] >> 32);
                unsigned prefixes = __ballot_sync(FULL, f == PREFIX), nothing = __ballot_sync(FULL, f == NOTHING);
                unsigned upto = NEAR && prefixes ? (prefixes & -prefixes) * 2 - 1 : FULL; /* lanes up to the nearest prefix */
                if (nothing & upto) waiting = true;
                else if (prefixes) win = k, at_lane = __ffs(prefixes) - 1;
            }
            if (!waiting) break;
            if (BACKOFF) __nanosleep(ns);
        }
        int x = 0;
#pragma unroll
        for (int k = 0; k < KW; k++)
            if (k < win || (k == win && lane <= at_lane)) x += (int)(unsigned)s[k];
        for (int d = WARP / 2; d > 0; d /= 2) x += __shfl_xor_sync(FULL, x, d);
        sum += x;
        if (win < KW) return sum;
        last -= 32 * KW;
    }
}

template <int K, bool NEAR, bool BACKOFF> void scan_variant(int n, const int *in, int *out, int *work)
{
    int tiles = (n + TILE - 1) / TILE;
    clear_states<<<(tiles + THREADS - 1) / THREADS, THREADS>>>(work, tiles);
    lookback_kernel<look_back_variant<K, NEAR, BACKOFF>><<<tiles, THREADS>>>(in, out, n, work, aligned16(in) && aligned16(out));
}

/* Each thread's VEC int4s of `tile` into its own slots of `stage` (slot j at j * THREADS + thread):
 * by cp.async where the tile is whole and the pointers aligned, else by plain loads. */
__device__ void stage_tile(const int *in, int n, int tile, bool vec, int4 *stage)
{
    bool whole = vec && (long long)(tile + 1) * TILE <= n;
#pragma unroll
    for (int j = 0; j < VEC; j++) {
        long long i = elem_at(tile, j);
        if (whole) __pipeline_memcpy_async(&stage[j * THREADS + threadIdx.x], in + i, 16);
        else stage[j * THREADS + threadIdx.x] = load4(in, i, n, false);
    }
    __pipeline_commit();
}

__global__ void __launch_bounds__(THREADS) prefetch_kernel(const int *in, int *out, int n, int *work, int tiles, bool vec)
{
    extern __shared__ int4 stage[]; /* THREADS x VEC int4s */
    __shared__ int warp_off[WARPS];
    __shared__ int next_s, before_s;
    auto *states = reinterpret_cast<volatile unsigned long long *>(work + 2);
    if (threadIdx.x == 0) next_s = atomicAdd(work, 1);
    __syncthreads();
    int tile = next_s;
    if (tile < tiles) stage_tile(in, n, tile, vec, stage);
    while (tile < tiles) {
        __pipeline_wait_prior(0);
        tile_regs r;
#pragma unroll
        for (int j = 0; j < VEC; j++) r.v[j] = stage[j * THREADS + threadIdx.x];
        scan_in_warp(r);
        int total = scan_warps(r, warp_off); /* its barriers also free next_s */
        if (threadIdx.x == 0) {
            states[tile] = state(tile == 0 ? PREFIX : TOTAL, total);
            next_s = atomicAdd(work, 1);
        }
        __syncthreads();
        int next = next_s;
        if (next < tiles) stage_tile(in, n, next, vec, stage);
        if (threadIdx.x < WARP) {
            int before = tile == 0 ? 0 : look_back(states, tile);
            if (threadIdx.x == 0) {
                if (tile > 0) states[tile] = state(PREFIX, before + total);
                before_s = before;
            }
        }
        __syncthreads();
        store_tile(out, n, tile, vec, r, before_s + warp_off[threadIdx.x / WARP]);
        __syncthreads(); /* before_s and warp_off are free */
        tile = next;
    }
}

int prefetch_grid = 0;
void scan_prefetch(int n, const int *in, int *out, int *work)
{
    int tiles = (n + TILE - 1) / TILE, smem = THREADS * VEC * 16;
    if (!prefetch_grid) {
        CK(cudaFuncSetAttribute(prefetch_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
        int per_sm = 0, sms = 0;
        CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, prefetch_kernel, THREADS, smem));
        CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
        prefetch_grid = per_sm * sms;
        printf("prefetch: %d blocks an SM, %d SMs\n", per_sm, sms);
    }
    clear_states<<<(tiles + THREADS - 1) / THREADS, THREADS>>>(work, tiles);
    prefetch_kernel<<<std::min(tiles, prefetch_grid), THREADS, smem>>>(in, out, n, work, tiles, aligned16(in) && aligned16(out));
}

/* A warp a tile: each warp takes its own tile from the counter (WV int4s a lane, 128 WV ints),
 * scans it by shuffles, publishes, looks back and stores, with no barrier: while one warp waits
 * on its predecessors, the others of its SM go on loading. */
template <int WV, int WT>
__global__ void __launch_bounds__(WT) warp_tiles_kernel(const int *in, int *out, int n, int *work, int tiles, bool vec)
{
    constexpr int WTILE = WARP * 4 * WV;
    int lane = threadIdx.x % WARP;
    int tile = 0;
    if (lane == 0) tile = atomicAdd(work, 1);
    tile = __shfl_sync(FULL, tile, 0);
    if (tile >= tiles) return;
    auto *states = reinterpret_cast<volatile unsigned long long *>(work + 2);
    long long base = (long long)tile * WTILE + lane * 4;
    int4 v[WV];
    int excl[WV];
#pragma unroll
    for (int j = 0; j < WV; j++) v[j] = load4(in, base + j * 128, n, vec);
    int running = 0;
#pragma unroll
    for (int j = 0; j < WV; j++) {
        int x = v[j].x + v[j].y + v[j].z + v[j].w, inclusive = warp_inclusive(x);
        excl[j] = running + inclusive - x;
        running += __shfl_sync(FULL, inclusive, WARP - 1);
    }
    if (lane == 0) states[tile] = state(tile == 0 ? PREFIX : TOTAL, running);
    int before = tile == 0 ? 0 : look_back(states, tile);
    if (lane == 0 && tile > 0) states[tile] = state(PREFIX, before + running);
#pragma unroll
    for (int j = 0; j < WV; j++) store4(out, base + j * 128, n, vec, exclusive4(v[j], before + excl[j]));
}

template <int WV, int WT> void scan_warp_tiles(int n, const int *in, int *out, int *work)
{
    int tiles = (n + WARP * 4 * WV - 1) / (WARP * 4 * WV), warps = WT / WARP;
    clear_states<<<(tiles + THREADS - 1) / THREADS, THREADS>>>(work, tiles);
    warp_tiles_kernel<WV, WT><<<(tiles + warps - 1) / warps, WT>>>(in, out, n, work, tiles, aligned16(in) && aligned16(out));
}

/* The reference's tile (THREADS threads, SV int4s each), its int4s copied into shared memory by
 * cp.async (each thread its own, so no barrier is needed before it reads them) instead of held in
 * registers: a block then needs few registers, and shared memory, not the register file, bounds
 * how many tiles an SM has in flight. */
template <int SV>
__global__ void __launch_bounds__(THREADS) staged_kernel(const int *in, int *out, int n, int *work, bool vec)
{
    extern __shared__ int4 stage[]; /* THREADS x SV */
    __shared__ int warp_off[WARPS];
    __shared__ int tile_s, before_s;
    constexpr int STILE = THREADS * 4 * SV, SWARP = WARP * 4 * SV;
    if (threadIdx.x == 0) tile_s = atomicAdd(work, 1);
    __syncthreads();
    int tile = tile_s, lane = threadIdx.x % WARP, w = threadIdx.x / WARP;
    auto *states = reinterpret_cast<volatile unsigned long long *>(work + 2);
    long long base = (long long)tile * STILE + w * SWARP + lane * 4;
    bool whole = vec && (long long)(tile + 1) * STILE <= n;
#pragma unroll
    for (int j = 0; j < SV; j++) {
        if (whole) __pipeline_memcpy_async(&stage[j * THREADS + threadIdx.x], in + base + j * 128, 16);
        else stage[j * THREADS + threadIdx.x] = load4(in, base + j * 128, n, false);
    }
    __pipeline_commit();
    __pipeline_wait_prior(0);
    int excl[SV], running = 0;
#pragma unroll
    for (int j = 0; j < SV; j++) {
        int4 v = stage[j * THREADS + threadIdx.x];
        int x = v.x + v.y + v.z + v.w, inclusive = warp_inclusive(x);
        excl[j] = running + inclusive - x;
        running += __shfl_sync(FULL, inclusive, WARP - 1);
    }
    if (lane == 0) warp_off[w] = running;
    __syncthreads();
    int x = lane < WARPS ? warp_off[lane] : 0, inclusive = warp_inclusive(x);
    int total = __shfl_sync(FULL, inclusive, WARPS - 1);
    __syncthreads();
    if (w == 0 && lane < WARPS) warp_off[lane] = inclusive - x;
    if (threadIdx.x < WARP) {
        if (threadIdx.x == 0) states[tile] = state(tile == 0 ? PREFIX : TOTAL, total);
        int before = tile == 0 ? 0 : look_back(states, tile);
        if (threadIdx.x == 0) {
            if (tile > 0) states[tile] = state(PREFIX, before + total);
            before_s = before;
        }
    }
    __syncthreads();
    int off = before_s + warp_off[w];
#pragma unroll
    for (int j = 0; j < SV; j++)
        store4(out, base + j * 128, n, vec, exclusive4(stage[j * THREADS + threadIdx.x], off + excl[j]));
}

template <int SV> void scan_staged(int n, const int *in, int *out, int *work)
{
    constexpr int STILE = THREADS * 4 * SV;
    int tiles = (n + STILE - 1) / STILE, smem = THREADS * SV * 16;
    static bool said;
    if (!said) {
        CK(cudaFuncSetAttribute(staged_kernel<SV>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
        int per_sm = 0;
        CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, staged_kernel<SV>, THREADS, smem));
        printf("staged SV=%d: %d blocks an SM\n", SV, per_sm);
        said = true;
    }
    clear_states<<<(tiles + THREADS - 1) / THREADS, THREADS>>>(work, tiles);
    staged_kernel<SV><<<tiles, THREADS, smem>>>(in, out, n, work, aligned16(in) && aligned16(out));
}

__global__ void __launch_bounds__(THREADS) copy_kernel(const int *in, int *out, int n)
{
    tile_regs r;
    load_tile(in, n, blockIdx.x, true, r);
#pragma unroll
    for (int j = 0; j < VEC; j++) store4(out, elem_at(blockIdx.x, j), n, true, r.v[j]);
}

} // namespace

int *g_in, *g_out, *g_work;
std::vector<int> h;
void *g_cub;
size_t g_cub_bytes;

bool check(int n)
{
    std::vector<int> o(n);
    CK(cudaMemcpy(o.data(), g_out, 4ull * n, cudaMemcpyDeviceToHost));
    long long s = 0;
    for (int i = 0; i < n; i++) {
        if (o[i] != (int)s) { printf("  WRONG at %d: %d, not %lld\n", i, o[i], s); return false; }
        s += h[i];
    }
    return true;
}

/* Every call's time: the median, the least, the most, and how many took over twice the median. */
template <class F> void timed(const char *name, int n, double copy, F f, bool verify = true)
{
    if (!g_flush) CK(cudaMalloc(&g_flush, FLUSH));
    CK(cudaMemset(g_out, 0, 4ull * n));
    f();
    CK(cudaDeviceSynchronize());
    bool ok = !verify || check(n);
    std::vector<double> t;
    for (int r = 0; r < 25; r++) {
        CK(cudaMemsetAsync(g_flush, r, FLUSH));
        CK(cudaDeviceSynchronize());
        t.push_back(1e3 * wb_gpu_time(call_f<F>, &f));
    }
    CK(cudaGetLastError());
    std::vector<double> s = t;
    std::sort(s.begin(), s.end());
    double med = s[s.size() / 2];
    int slow = 0;
    for (double x : t) slow += x > 2 * med;
    auto pct = [&](double ms) { return 100 * 8.0 * n / ms / 1e6 / copy; };
    printf("  %-10s n=%-10d median %7.1f%%  best %7.1f%%  worst %7.1f%%  calls over 2x the median: %d %s\n", name, n,
           pct(med), pct(s.front()), pct(s.back()), slow, ok ? "ok" : "WRONG");
    if (slow) {
        printf("    every call, ms:");
        for (double x : t) printf(" %.3f", x);
        printf("\n");
    }
}

int main(int argc, char **argv)
{
    int N = (1 << 28) - 1;
    h.resize(N);
    for (int i = 0; i < N; i++) h[i] = (int)((unsigned)i * 2654435761u >> 28) - 6;
    CK(cudaMalloc(&g_in, 4ull * N));
    CK(cudaMalloc(&g_out, 4ull * N));
    CK(cudaMalloc(&g_work, 4ull * (N / 8 + 1024)));
    CK(cudaMemcpy(g_in, h.data(), 4ull * N, cudaMemcpyHostToDevice));
    std::vector<int> sizes = {1 << 20, 1 << 22, 1 << 24, 1 << 26, (1 << 28) - 1};
    int rounds = argc > 1 ? atoi(argv[1]) : 1;
    for (int round = 0; round < rounds; round++)
        for (int n : sizes) {
            double copy = copy_gbs(4ull * n);
            printf("n=%d: copy %.0f GB/s (cudaMemcpy, read + write)\n", n, copy);
            timed("reference", n, copy, [&] { scan_lookback(n, g_in, g_out, g_work); });
            timed("backoff", n, copy, [&] { scan_variant<1, false, true>(n, g_in, g_out, g_work); });
            timed("near", n, copy, [&] { scan_variant<1, true, false>(n, g_in, g_out, g_work); });
            timed("wide2", n, copy, [&] { scan_variant<2, true, false>(n, g_in, g_out, g_work); });
            timed("wide4", n, copy, [&] { scan_variant<4, true, false>(n, g_in, g_out, g_work); });
            timed("prefetch", n, copy, [&] { scan_prefetch(n, g_in, g_out, g_work); });
            timed("staged6", n, copy, [&] { scan_staged<6>(n, g_in, g_out, g_work); });
            timed("staged8", n, copy, [&] { scan_staged<8>(n, g_in, g_out, g_work); });
            timed("staged12", n, copy, [&] { scan_staged<12>(n, g_in, g_out, g_work); });
            timed("staged16", n, copy, [&] { scan_staged<16>(n, g_in, g_out, g_work); });
            timed("warp8x128", n, copy, [&] { scan_warp_tiles<8, 128>(n, g_in, g_out, g_work); });
            timed("warp16x128", n, copy, [&] { scan_warp_tiles<16, 128>(n, g_in, g_out, g_work); });
            timed("warp24x128", n, copy, [&] { scan_warp_tiles<24, 128>(n, g_in, g_out, g_work); });
            timed("no wait", n, copy, [&] { scan_variant<0, false, false>(n, g_in, g_out, g_work); }, false);
            timed("multiblock", n, copy, [&] { scan_multiblock(n, g_in, g_out, g_work); });
            size_t need = 0;
            cub::DeviceScan::ExclusiveSum(nullptr, need, g_in, g_out, n);
            if (need > g_cub_bytes) {
                if (g_cub) CK(cudaFree(g_cub));
                CK(cudaMalloc(&g_cub, need));
                g_cub_bytes = need;
            }
            timed("cub", n, copy, [&] { size_t b = g_cub_bytes; cub::DeviceScan::ExclusiveSum(g_cub, b, g_in, g_out, n); });
            timed("copy tiles", n, copy, [&] { copy_kernel<<<n / TILE, THREADS>>>(g_in, g_out, n / TILE * TILE); }, false);
        }
}
