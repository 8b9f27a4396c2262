// transpose.cu - the study behind lab 08's `vectorized` reference (docs/BENCHMARKS.md, "Labs 08-11
// on a GPU"): tile shapes and thread counts at the timed and larger shapes, against the device's
// copy bandwidth. Full tiles only; run by scripts/studies/run.sh.
#include "common.h"
// A TS x TS tile, T threads; each thread moves float4s: loads along in's rows, stores along out's
// rows. CS: streaming loads and stores (__ldcs/__stcs) instead of plain ones.
template <int TS, int T, bool CS>
__global__ void __launch_bounds__(T) tr(int m, int n, const float *__restrict__ in, float *__restrict__ out) {
  __shared__ float tile[TS][TS + 1];
  constexpr int CPR = TS / 4, RPP = T / CPR;
  int i0 = blockIdx.y * TS, j0 = blockIdx.x * TS, c = threadIdx.x % CPR, r0 = threadIdx.x / CPR;
  float4 v[TS / RPP];
#pragma unroll
  for (int p = 0; p < TS / RPP; p++) {
    const float4 *src = reinterpret_cast<const float4 *>(in + (size_t)(i0 + r0 + p * RPP) * n + j0 + 4 * c);
    v[p] = CS ? __ldcs(src) : *src;
  }
#pragma unroll
  for (int p = 0; p < TS / RPP; p++) { int r = r0 + p * RPP; tile[r][4 * c] = v[p].x; tile[r][4 * c + 1] = v[p].y; tile[r][4 * c + 2] = v[p].z; tile[r][4 * c + 3] = v[p].w; }
  __syncthreads();
#pragma unroll
  for (int p = 0; p < TS / RPP; p++) { int r = r0 + p * RPP;
    float4 o = make_float4(tile[4 * c][r], tile[4 * c + 1][r], tile[4 * c + 2][r], tile[4 * c + 3][r]);
    float4 *dst = reinterpret_cast<float4 *>(out + (size_t)(j0 + r) * m + i0 + 4 * c);
    if (CS) __stcs(dst, o); else *dst = o; }
}
float *g_in, *g_out;
template <int TS, int T, bool CS> void run(int m, int n, double cp) {
  dim3 g(n / TS, m / TS);
  double ms = time_ms([&] { tr<TS, T, CS><<<g, T>>>(m, n, g_in, g_out); });
  std::vector<float> a((size_t)m * n), b((size_t)m * n);
  CK(cudaMemcpy(a.data(), g_in, 4ull * m * n, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(b.data(), g_out, 4ull * m * n, cudaMemcpyDeviceToHost));
  bool ok = true; for (size_t k = 0; k < (size_t)m * n && ok; k += 977) { size_t i = k / n, j = k % n; ok = b[j * m + i] == a[k]; }
  printf("  TS=%d T=%d cs=%d %dx%d: %.4f ms %.0f GB/s %.1f%% %s\n", TS, T, (int)CS, m, n, ms, 8.0 * m * n / ms / 1e6, 100 * 8.0 * m * n / ms / 1e6 / cp, ok ? "ok" : "WRONG");
}
int main() {
  size_t N = 16384ull * 16384; CK(cudaMalloc(&g_in, 4 * N)); CK(cudaMalloc(&g_out, 4 * N));
  std::vector<float> h(N); for (size_t i = 0; i < N; i++) h[i] = (float)(i % 100003); CK(cudaMemcpy(g_in, h.data(), 4 * N, cudaMemcpyHostToDevice));
  int shapes[3][2] = {{8192, 12288}, {16384, 16384}, {12288, 8192}};
  for (auto &s : shapes) { int m = s[0], n = s[1]; double cp = copy_gbs(4ull * m * n); printf("%dx%d copy %.0f GB/s\n", m, n, cp);
    run<32, 256, false>(m, n, cp); run<32, 128, false>(m, n, cp); run<32, 64, false>(m, n, cp);
    run<64, 256, false>(m, n, cp); run<64, 512, false>(m, n, cp); run<64, 128, false>(m, n, cp); run<64, 1024, false>(m, n, cp);
    run<32, 256, true>(m, n, cp); run<64, 256, true>(m, n, cp); run<64, 512, true>(m, n, cp); }
}
