// conv.cu - the study behind lab 11's `coarsened` reference (docs/BENCHMARKS.md, "Labs 08-11 on a
// GPU"): the reference's own file, included whole, its stage-4 kernel timed with C x RT outputs a
// thread for RT = 1, 2, 4, 8 and C = 4, 8, at every K (8192^2) and at 4096^2 and 16384^2, against the lower of the memory roof and an FFMA peak
// measured here; stage 3 (tiled) beside it.
#include "common.h"
#include "11-convolution/conv.cu" /* solutions/, on the include path */

float *g_in, *g_out;
static double g_roof_bw, g_peak;
static double roof(int K) { return std::min(g_roof_bw * K * K / 4.0, g_peak); }
template <int K, int RT, int C = 4, bool CS = false> void run(int m, int n) {
  using T = coarse_tile<K, RT, C>;
  if constexpr (2 * T::IH * T::SW * 4 > 48 * 1024) return; /* over the static shared-memory limit */
  else {
  double ms = time_ms([&] { filter_to_constant(K, g_out); coarsened_launch_rt<K, RT, C, CS>(m, n, g_in, g_out); });
  cudaFuncAttributes fa; CK(cudaFuncGetAttributes(&fa, coarsened_kernel<K, RT, C, CS>));
  int per_sm = 0; CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, coarsened_kernel<K, RT, C, CS>, 256, 0));
  double gf = 2.0 * K * K * m * n / ms / 1e6;
  printf("  coarsened %5dx%-5d K=%-2d RT=%d C=%d streaming=%d regs=%d spill=%d blocks/SM=%d: %.4f ms %.0f GFLOP/s %.1f%% of roof%s\n", m, n, K, RT,
         C, (int)CS, fa.numRegs, (int)fa.localSizeBytes, per_sm, ms, gf, 100 * gf / roof(K), RT == (K <= 11 ? 4 : 2) && C == 4 && !CS ? "  <- the reference" : "");
  }
}
template <int K> void sweep(int m, int n) {
  run<K, 1, 4>(m, n); run<K, 2, 4>(m, n); run<K, 4, 4>(m, n); run<K, 8, 4>(m, n);
  run<K, 1, 8>(m, n); run<K, 2, 8>(m, n); run<K, 4, 8>(m, n);
}
template <int K> void tiled(int m, int n) {
  double ms = time_ms([&] { filter_to_constant(K, g_out); tiled_launch<K>(m, n, g_in, g_out); });
  double gf = 2.0 * K * K * m * n / ms / 1e6;
  printf("  tiled     K=%-2d: %.4f ms %.0f GFLOP/s %.1f%% of roof\n", K, ms, gf, 100 * gf / roof(K));
}
__global__ void ffma(float *o, float s) { float a[8]; for (int i = 0; i < 8; i++) a[i] = threadIdx.x + i;
  for (int k = 0; k < 4096; k++) {
#pragma unroll
    for (int i = 0; i < 8; i++) a[i] = fmaf(a[i], s, 0.5f); }
  float t = 0; for (int i = 0; i < 8; i++) t += a[i]; if (t == 1.2345f) o[0] = t; }
int main() {
  int m = 8192, n = 8192; size_t N = (size_t)m * n; CK(cudaMalloc(&g_in, 4 * N)); CK(cudaMalloc(&g_out, 4 * N));
  std::vector<float> h(N); for (size_t i = 0; i < N; i++) h[i] = (float)(i % 1009) / 1009.f; CK(cudaMemcpy(g_in, h.data(), 4 * N, cudaMemcpyHostToDevice));
  double cp = copy_gbs(4 * N); int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  double ms = time_ms([&] { ffma<<<sms * 8, 256>>>(g_out, 0.999f); });
  g_peak = 2.0 * 8 * 4096 * 256.0 * sms * 8 / ms / 1e6;
  g_roof_bw = cp;
  printf("copy %.0f GB/s, fp32 %.0f GFLOP/s, roof at K=7 %.0f GFLOP/s\n", cp, g_peak, roof(7));
  tiled<7>(m, n);
  sweep<3>(m, n); sweep<5>(m, n); sweep<7>(m, n); sweep<9>(m, n); sweep<11>(m, n); sweep<13>(m, n); sweep<15>(m, n);
  sweep<7>(4096, 4096); sweep<5>(4096, 4096); sweep<9>(4096, 4096);
  CK(cudaFree(g_in)); CK(cudaFree(g_out)); N = 16384ull * 16384; CK(cudaMalloc(&g_in, 4 * N)); CK(cudaMalloc(&g_out, 4 * N));
  CK(cudaMemset(g_in, 0, 4 * N)); sweep<7>(16384, 16384);
}
