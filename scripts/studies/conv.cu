// conv.cu - the study behind lab 11's `coarsened` reference (docs/BENCHMARKS.md, "Labs 08-11 on a
// GPU"): the reference's kernel body (extracted from solutions/11-convolution/conv.cu by run.sh)
// with its outputs a thread, C x RT, and its minimum blocks an SM made template parameters, at
// 8192^2 and K = 7, against the lower of the memory roof and an FFMA peak measured here.
#include "common.h"
#include <cstdint>
__constant__ float c_filter[15 * 15];
template <int K, int C, int RT, int MINB>
__global__ void __launch_bounds__(256, MINB) co(int m, int n, const float *__restrict__ in, float *__restrict__ out)
{
    constexpr int C_COLS = 32 * C, C_ROWS = 8 * RT;
#include "coarsened_body.inc"
float *g_in, *g_out;
template <int C, int RT, int MINB> void run(int m, int n, double roof) {
  constexpr int K = 7; dim3 g((n + 32 * C - 1) / (32 * C), (m + 8 * RT - 1) / (8 * RT));
  double ms = time_ms([&] { co<K, C, RT, MINB><<<g, dim3(32, 8)>>>(m, n, g_in, g_out); });
  cudaFuncAttributes fa; cudaFuncGetAttributes(&fa, co<K, C, RT, MINB>);
  double gf = 2.0 * K * K * m * n / ms / 1e6;
  printf("  C=%d RT=%d minb=%d regs=%d: %.4f ms %.0f GFLOP/s %.1f%% of roof\n", C, RT, MINB, fa.numRegs, ms, gf, 100 * gf / roof);
}
__global__ void ffma(float *o, float s) { float a[8]; for (int i = 0; i < 8; i++) a[i] = threadIdx.x + i;
  for (int k = 0; k < 4096; k++) { 
#pragma unroll
    for (int i = 0; i < 8; i++) a[i] = fmaf(a[i], s, 0.5f); }
  float t = 0; for (int i = 0; i < 8; i++) t += a[i]; if (t == 1.2345f) o[0] = t; }
int main() {
  int m = 8192, n = 8192; size_t N = (size_t)m * n; CK(cudaMalloc(&g_in, 4 * N)); CK(cudaMalloc(&g_out, 4 * N));
  std::vector<float> h(N); for (size_t i = 0; i < N; i++) h[i] = (float)(i % 1009) / 1009.f; CK(cudaMemcpy(g_in, h.data(), 4 * N, cudaMemcpyHostToDevice));
  float f[49]; for (int i = 0; i < 49; i++) f[i] = 0.01f * i; CK(cudaMemcpyToSymbol(c_filter, f, sizeof f));
  double cp = copy_gbs(4 * N); int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  double ms = time_ms([&] { ffma<<<sms * 8, 256>>>(g_out, 0.999f); });
  double peak = 2.0 * 8 * 4096 * 256.0 * sms * 8 / ms / 1e6;
  double roof = std::min(cp * 98 / 8, peak);
  printf("copy %.0f GB/s, fp32 %.0f GFLOP/s, roof %.0f\n", cp, peak, roof);
  run<4, 4, 1>(m, n, roof); run<4, 2, 1>(m, n, roof); run<4, 1, 1>(m, n, roof); run<8, 1, 1>(m, n, roof); run<4, 8, 1>(m, n, roof); run<8, 2, 1>(m, n, roof);
}
