// scan.cu - the study behind lab 10's `lookback` reference (docs/BENCHMARKS.md, "Labs 08-11 on a
// GPU"): the decoupled look-back with T threads and V int4s a thread, the tile from an atomic
// counter or from blockIdx.x, at 2^26 and 2^28 ints, beside CUB's DeviceScan and the device's copy
// bandwidth. Full tiles only; run by scripts/studies/run.sh.
#include "common.h"
#include <cub/device/device_scan.cuh>
constexpr int WARP = 32; constexpr unsigned FULL = 0xffffffffu;
__device__ int warp_inclusive(int v) { int lane = threadIdx.x % WARP;
  for (int d = 1; d < WARP; d *= 2) { int t = __shfl_up_sync(FULL, v, d); if (lane >= d) v += t; } return v; }
__device__ unsigned long long st(unsigned f, int v) { return (unsigned long long)f << 32 | (unsigned)v; }
__global__ void clear_states(int *work, int tiles) { int i = blockIdx.x * blockDim.x + threadIdx.x;
  auto *s = reinterpret_cast<unsigned long long *>(work + 2); if (i < tiles) s[i] = 0; if (i == 0) work[0] = 0; }
__device__ int look_back(volatile unsigned long long *states, int tile) {
  int lane = threadIdx.x % WARP, sum = 0;
  for (int last = tile - 1;;) { int at = last - lane; unsigned long long s;
    do s = at >= 0 ? states[at] : st(2, 0); while (__any_sync(FULL, (unsigned)(s >> 32) == 0));
    unsigned p = __ballot_sync(FULL, (unsigned)(s >> 32) == 2); int stop = p ? __ffs(p) - 1 : WARP;
    int x = lane <= stop ? (int)(unsigned)s : 0;
    for (int d = 16; d > 0; d /= 2) x += __shfl_xor_sync(FULL, x, d);
    sum += x; if (p) return sum; last -= WARP; } }
// T threads, V int4 per thread; full tiles only (n multiple of tile) for the tuning; CS: the loads
// and stores marked streaming (__ldcs, __stcs: evict first)
template <int T, int V, bool ATOMIC, bool CS = false>
__global__ void __launch_bounds__(T) lb(const int *in, int *out, int n, int *work) {
  constexpr int W = T / WARP; __shared__ int woff[W]; __shared__ int tile_s, before_s;
  int tile;
  if (ATOMIC) { if (threadIdx.x == 0) tile_s = atomicAdd(work, 1); __syncthreads(); tile = tile_s; } else tile = blockIdx.x;
  auto *states = reinterpret_cast<volatile unsigned long long *>(work + 2);
  int lane = threadIdx.x % WARP, w = threadIdx.x / WARP;
  long long base = (long long)tile * T * V * 4 + (long long)w * V * 128 + lane * 4;
  int4 v[V]; int ex[V];
#pragma unroll
  for (int j = 0; j < V; j++) v[j] = CS ? __ldcs(reinterpret_cast<const int4 *>(in + base + j * 128)) : *reinterpret_cast<const int4 *>(in + base + j * 128);
  int run = 0;
#pragma unroll
  for (int j = 0; j < V; j++) { int x = v[j].x + v[j].y + v[j].z + v[j].w, inc = warp_inclusive(x); ex[j] = run + inc - x; run += __shfl_sync(FULL, inc, 31); }
  if (lane == 0) woff[w] = run; __syncthreads();
  int x = lane < W ? woff[lane] : 0, inc = warp_inclusive(x); int total = __shfl_sync(FULL, inc, W - 1);
  __syncthreads(); if (w == 0 && lane < W) woff[lane] = inc - x; __syncthreads();
  if (threadIdx.x < WARP) { if (threadIdx.x == 0) states[tile] = st(tile == 0 ? 2 : 1, total);
    int before = tile == 0 ? 0 : look_back(states, tile);
    if (threadIdx.x == 0) { if (tile > 0) states[tile] = st(2, before + total); before_s = before; } }
  __syncthreads();
  int off = before_s + woff[w];
#pragma unroll
  for (int j = 0; j < V; j++) { int4 e; e.x = off + ex[j]; e.y = e.x + v[j].x; e.z = e.y + v[j].y; e.w = e.z + v[j].z;
    if (CS) __stcs(reinterpret_cast<int4 *>(out + base + j * 128), e); else *reinterpret_cast<int4 *>(out + base + j * 128) = e; }
}
// The same tiles copied, no scan: what a kernel of this shape can move
template <int T, int V>
__global__ void __launch_bounds__(T) copy_tiles(const int *in, int *out) {
  int lane = threadIdx.x % WARP, w = threadIdx.x / WARP;
  long long base = (long long)blockIdx.x * T * V * 4 + (long long)w * V * 128 + lane * 4;
  int4 v[V];
#pragma unroll
  for (int j = 0; j < V; j++) v[j] = *reinterpret_cast<const int4 *>(in + base + j * 128);
#pragma unroll
  for (int j = 0; j < V; j++) *reinterpret_cast<int4 *>(out + base + j * 128) = v[j];
}
int *g_in, *g_out, *g_work; std::vector<int> h;
bool check(int n) { std::vector<int> o(n); CK(cudaMemcpy(o.data(), g_out, 4ull * n, cudaMemcpyDeviceToHost));
  long long s = 0; for (int i = 0; i < n; i++) { if (o[i] != (int)s) { printf("  WRONG at %d\n", i); return false; } s += h[i]; } return true; }
template <int T, int V, bool A, bool CS = false> void run(int n, double cp) {
  int tile = T * V * 4, tiles = n / tile;
  auto f = [&] { clear_states<<<(tiles + 255) / 256, 256>>>(g_work, tiles); lb<T, V, A, CS><<<tiles, T>>>(g_in, g_out, n, g_work); };
  double ms = time_ms(f); bool ok = check(n);
  printf("  lookback T=%d V=%d atomic=%d streaming=%d n=%d: %.4f ms %.0f GB/s %.1f%% %s\n", T, V, (int)A, (int)CS, n, ms, 8.0 * n / ms / 1e6, 100 * 8.0 * n / ms / 1e6 / cp, ok ? "ok" : "");
}
template <int T, int V> void copy_run(int n, double cp) {
  double ms = time_ms([&] { copy_tiles<T, V><<<n / (T * V * 4), T>>>(g_in, g_out); });
  printf("  copy kernel T=%d V=%d n=%d: %.4f ms %.0f GB/s %.1f%%\n", T, V, n, ms, 8.0 * n / ms / 1e6, 100 * 8.0 * n / ms / 1e6 / cp);
}
int main() {
  size_t N = 1u << 28; h.resize(N); for (size_t i = 0; i < N; i++) h[i] = (int)(i * 2654435761u >> 28) - 6;
  CK(cudaMalloc(&g_in, 4 * N)); CK(cudaMalloc(&g_out, 4 * N)); CK(cudaMalloc(&g_work, 4 * (N / 8 + 1024)));
  CK(cudaMemcpy(g_in, h.data(), 4 * N, cudaMemcpyHostToDevice));
  for (int n : {1 << 26, 1 << 28}) {
    double cp = copy_gbs(4ull * n); printf("n=%d copy %.0f GB/s\n", n, cp);
    copy_run<256, 12>(n, cp); copy_run<256, 4>(n, cp);
    run<256, 4, true>(n, cp); run<256, 8, true>(n, cp); run<128, 8, true>(n, cp);
    run<256, 12, true>(n, cp); run<256, 12, true, true>(n, cp); run<256, 12, false>(n, cp);
    run<128, 12, true>(n, cp); run<128, 16, true>(n, cp); run<128, 16, true, true>(n, cp);
    void *tmp = nullptr; size_t tb = 0; cub::DeviceScan::ExclusiveSum(tmp, tb, g_in, g_out, n); CK(cudaMalloc(&tmp, tb));
    double ms = time_ms([&] { cub::DeviceScan::ExclusiveSum(tmp, tb, g_in, g_out, n); });
    printf("  cub n=%d: %.4f ms %.0f GB/s %.1f%% %s\n", n, ms, 8.0 * n / ms / 1e6, 100 * 8.0 * n / ms / 1e6 / cp, check(n) ? "ok" : ""); cudaFree(tmp);
  }
}
