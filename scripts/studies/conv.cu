// conv.cu - the study behind lab 11's `coarsened` reference (docs/BENCHMARKS.md, "Labs 08-11 on a
// GPU"): the reference's own file, included whole, its stage-4 kernel timed with C x RT outputs a
// thread for RT = 1, 2, 4, C = 4 and 8, plain and streaming stores, and every K, against the lower of the memory roof and an FFMA peak
// measured here; stage 3 (tiled) beside it.
#include "common.h"
#include "11-convolution/conv.cu" /* solutions/, on the include path */

float *g_in, *g_out;
static double g_roof_bw, g_peak;
static double roof(int K) { return std::min(g_roof_bw * K * K / 4.0, g_peak); }
template <int K, int RT, int C = 4, bool CS = false> void run(int m, int n) {
  double ms = time_ms([&] { filter_to_constant(K, g_out); coarsened_launch_rt<K, RT, C, CS>(m, n, g_in, g_out); });
  cudaFuncAttributes fa; CK(cudaFuncGetAttributes(&fa, coarsened_kernel<K, RT, C, CS>));
  int per_sm = 0; CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, coarsened_kernel<K, RT, C, CS>, 256, 0));
  double gf = 2.0 * K * K * m * n / ms / 1e6;
  printf("  coarsened K=%-2d RT=%d C=%d streaming=%d regs=%d blocks/SM=%d: %.4f ms %.0f GFLOP/s %.1f%% of roof\n", K, RT,
         C, (int)CS, fa.numRegs, per_sm, ms, gf, 100 * gf / roof(K));
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
  run<7, 4>(m, n); run<7, 4, 4, true>(m, n); run<7, 2>(m, n); run<7, 1>(m, n); run<7, 2, 8>(m, n);
  run<7, 2, 8, true>(m, n); run<7, 1, 8>(m, n); run<7, 4>(m, n);
  run<3, 4>(m, n); run<5, 4>(m, n); run<9, 4>(m, n); run<11, 4>(m, n); run<13, 2>(m, n); run<15, 2>(m, n);
}
