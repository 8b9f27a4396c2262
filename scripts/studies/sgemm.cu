// sgemm.cu - the study behind lab 06's `vectorized` reference (issue 29): the reference's own file,
// included whole, its stage-6 kernel timed at several block tiles and k steps, at every size of
// lab 06's bench, against cuBLAS SGEMM (no TF32) timed the same way (the grader's timer, the L2
// flushed before every call of either). Each variant's C is checked against cuBLAS's at sampled
// elements. Run by scripts/studies/run.sh (linked with -lcublas).
#include "common.h"
#include <cublas_v2.h>
#include "06-tiling/sgemm.cu" /* solutions/, on the include path */

static float *g_a, *g_b, *g_c, *g_ref;
static const float ALPHA = 1.5f, BETA = 0.0f;
static cublasHandle_t g_h;
static void cublas(int m, int n, int k, float *c)
{ /* row-major C = A B is column-major C^T = B^T A^T */
    cublasSgemm(g_h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &ALPHA, g_b, n, g_a, k, &BETA, c, n);
}
static bool same(int m, int n, int k)
{
    size_t N = (size_t)m * n, step = N / 997 + 1;
    std::vector<float> x(N), y(N);
    CK(cudaMemcpy(x.data(), g_c, 4 * N, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(y.data(), g_ref, 4 * N, cudaMemcpyDeviceToHost));
    for (size_t e = 0; e < N; e += step)
        if (std::abs(x[e] - y[e]) > 1e-4f * k + 1e-3f * std::abs(y[e])) return false;
    return true;
}
template <int BM, int BN, int BK, int G> void run(int s, double blas_ms, const char *note = "")
{
    CK(cudaMemset(g_c, 0, 4ull * s * s));
    double ms = time_ms([&] { vectorized_launch<BM, BN, BK, G>(s, s, s, ALPHA, g_a, g_b, BETA, g_c); });
    bool ok = same(s, s, s);
    cudaFuncAttributes fa; CK(cudaFuncGetAttributes(&fa, vectorized_kernel<BM, BN, BK, G, true>));
    int per_sm = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, vectorized_kernel<BM, BN, BK, G, true>, BM * BN / 64, 0));
    long blocks = (long)((s + BM - 1) / BM) * ((s + BN - 1) / BN);
    printf("  %5d  %3dx%3dx%2d G=%d  regs=%3d blocks/SM=%d blocks=%6ld  %8.4f ms %7.0f GFLOP/s %5.1f%% of cuBLAS %s%s\n", s,
           BM, BN, BK, G, fa.numRegs, per_sm, blocks, ms, 2.0 * s * s * s / ms / 1e6, 100 * blas_ms / ms,
           ok ? "ok" : "WRONG", note);
}
int main()
{
    const int S = 8192;
    size_t N = (size_t)S * S;
    CK(cudaMalloc(&g_a, 4 * N)); CK(cudaMalloc(&g_b, 4 * N)); CK(cudaMalloc(&g_c, 4 * N)); CK(cudaMalloc(&g_ref, 4 * N));
    std::vector<float> h(N);
    for (size_t i = 0; i < N; i++) h[i] = (float)((i * 2654435761u) % 2001) / 1000.f - 1.f;
    CK(cudaMemcpy(g_a, h.data(), 4 * N, cudaMemcpyHostToDevice));
    for (size_t i = 0; i < N; i++) h[i] = (float)((i * 40503u + 7) % 1999) / 1000.f - 1.f;
    CK(cudaMemcpy(g_b, h.data(), 4 * N, cudaMemcpyHostToDevice));
    if (cublasCreate(&g_h) != CUBLAS_STATUS_SUCCESS) { printf("cublasCreate failed\n"); return 1; }
    cublasSetMathMode(g_h, CUBLAS_DEFAULT_MATH);
    int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    printf("%d SMs\n", sms);
    for (int s = 512; s <= S; s *= 2) {
        double blas = time_ms([&] { cublas(s, s, s, g_ref); });
        printf("%5d cuBLAS %.4f ms %.0f GFLOP/s (flushed)\n", s, blas, 2.0 * s * s * s / blas / 1e6);
        run<128, 128, 16, 8>(s, blas, "  <- the reference");
        run<128, 128, 8, 8>(s, blas);
        run<128, 128, 16, 1>(s, blas);
        run<128, 64, 16, 8>(s, blas);
        run<64, 128, 16, 8>(s, blas);
        run<64, 64, 16, 8>(s, blas);
        run<64, 64, 8, 8>(s, blas);
        run<32, 64, 16, 8>(s, blas);
    }
    return 0;
}
