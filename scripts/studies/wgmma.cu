// wgmma.cu - the studies toward lab 12 (issue 27): Hopper's warpgroup MMA (wgmma), on lab 07's
// problem: C = A B with A (M x K) and B (K x N) half precision, row-major, C (M x N) float, products
// summed in float; against cuBLAS (cublasGemmEx, FP16 in, FP32 compute and out) timed in the same run
// with the grader's timer, the L2 flushed before every call. Sizes multiples of the tiles. A is
// read K-major, B MN-major (wgmma's transposed B). Each C is checked against cuBLAS's at sampled
// elements, and both against a double-precision sum at a few. The kernels are lab 12's reference
// (solutions/12-hopper-gemm/hopper_gemm.cu, included whole), timed here at other tiles and depths:
//   stage 1 (plain<BM>): one warpgroup a BM x 128 tile; the tiles copied to shared memory by 16-byte
//     loads in the 128-byte swizzled layout wgmma reads, then the MMAs: no overlap.
//   stage 2 (tma<BM, STAGES>): the tiles brought by the tensor memory accelerator (TMA:
//     cp.async.bulk.tensor, swizzling as it writes) into a ring of STAGES stages, each completing
//     on an mbarrier; thread 0 refills a stage once the MMAs that read it are done.
//   stage 3 (specialised<STAGES>): a producer warpgroup that only issues copies (its registers
//     given up, setmaxnreg) and two consumer warpgroups that only issue MMAs, 128 x 256 tiles,
//     full and empty mbarriers a stage.
//   stage 4 (persistent<CLUSTER>): stage 3's warpgroups on a persistent grid, a block an SM walking
//     its tiles in groups of 8 tile rows (for L2), the producer running ahead into the next tile
//     while the consumers store; with CLUSTER, clusters of 2 blocks on vertically adjacent tiles,
//     each loading half of their shared B tile for both (TMA multicast).
// Built for sm_90a (wgmma and setmaxnreg exist only there) by scripts/studies/run.sh wgmma, with
// -lcuda: the tensor maps are made by the driver's cuTensorMapEncodeTiled.
#include "common.h"
#include <cmath>
#include <cstring>
#include <cublas_v2.h>
#include "12-hopper-gemm/hopper_gemm.cu" /* solutions/, on the include path: the kernels */

static __half *g_a, *g_b;
static float *g_c, *g_ref;
static cublasHandle_t g_h;
static std::vector<__half> g_ha, g_hb; /* this size's inputs on the host */

/* row-major C (M x N) = A B is column-major C^T = B^T A^T: B read as column-major N x K, A as K x M */
static void cublas(int m, int n, int k, void *c, cudaDataType ct)
{
    const float one = 1.0f, zero = 0.0f;
    cublasGemmEx(g_h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, g_b, CUDA_R_16F, n, g_a, CUDA_R_16F, k, &zero, c, ct, n,
                 CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
}

static const char *check(int m, int n, int k)
{
    size_t N = (size_t)m * n, step = N / 4999 + 1;
    std::vector<float> x(N), y(N);
    CK(cudaMemcpy(x.data(), g_c, 4 * N, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(y.data(), g_ref, 4 * N, cudaMemcpyDeviceToHost));
    for (size_t e = 0; e < N; e += step)
        if (!(std::fabs(x[e] - y[e]) <= 1e-3f * std::sqrt((float)k) + 1e-3f * std::fabs(y[e]))) return "WRONG (cuBLAS)";
    for (int s = 0; s < 16; s++) { /* a few elements against a double sum */
        size_t e = (size_t)s * 2654435761u % N;
        int i = (int)(e / n), j = (int)(e % n);
        double sum = 0;
        for (int p = 0; p < k; p++) sum += (double)__half2float(g_ha[(size_t)i * k + p]) * __half2float(g_hb[(size_t)p * n + j]);
        if (std::fabs(x[e] - sum) > 1e-4 * std::sqrt((double)k) + 1e-5 * std::fabs(sum)) return "WRONG (double)";
    }
    return "ok";
}

template <class F> static void report(const char *what, int s, double blas_ms, const void *fn, int threads, int smem, F launch)
{
    CK(cudaMemset(g_c, 0, 4ull * s * s));
    double ms = time_ms(launch);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    cudaFuncAttributes fa; CK(cudaFuncGetAttributes(&fa, fn));
    int per_sm = 0; CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fn, threads, smem));
    printf("  %5d  %-34s regs=%3d blocks/SM=%d  %8.4f ms %6.1f TFLOP/s %5.1f%% of cuBLAS  %s\n", s, what, fa.numRegs,
           per_sm, ms, 2.0 * s * s * s / ms / 1e9, 100 * blas_ms / ms, check(s, s, s));
}

template <int BM> static void run_plain(int s, double blas)
{
    char what[64]; snprintf(what, sizeof what, "stage 1, %d x 128", BM);
    report(what, s, blas, (const void *)plain<BM>, 128, 0, [&] { launch_wgmma<BM>(s, s, s, g_a, g_b, g_c); });
}

template <int BM, int STAGES> static void run_tma(int s, double blas)
{
    char what[64]; snprintf(what, sizeof what, "stage 2, %d x 128, %d stages", BM, STAGES);
    report(what, s, blas, (const void *)tma<BM, STAGES>, 128, tma_smem<BM, STAGES>(), [&] { launch_tma<BM, STAGES>(s, s, s, g_a, g_b, g_c); });
}

template <int STAGES> static void run_specialised(int s, double blas)
{
    char what[64]; snprintf(what, sizeof what, "stage 3, 128 x 256, %d stages", STAGES);
    report(what, s, blas, (const void *)specialised<STAGES>, 384, spec_smem<STAGES>(),
           [&] { launch_specialised<STAGES>(s, s, s, g_a, g_b, g_c); });
}

template <bool CLUSTER, int STAGES> static void run_persistent(int s, double blas)
{
    char what[64]; snprintf(what, sizeof what, "stage 4, %s, %d stages", CLUSTER ? "clusters of 2" : "persistent", STAGES);
    report(what, s, blas, (const void *)persistent<CLUSTER, STAGES>, 384, spec_smem<STAGES>(),
           [&] { launch_persistent<CLUSTER, STAGES>(s, s, s, g_a, g_b, g_c); });
}

int main()
{
    const int S = 8192;
    size_t N = (size_t)S * S;
    CK(cudaMalloc(&g_a, 2 * N)); CK(cudaMalloc(&g_b, 2 * N)); CK(cudaMalloc(&g_c, 4 * N)); CK(cudaMalloc(&g_ref, 4 * N));
    if (cublasCreate(&g_h) != CUBLAS_STATUS_SUCCESS) { printf("cublasCreate failed\n"); return 1; }
    cudaDeviceProp p; CK(cudaGetDeviceProperties(&p, 0));
    printf("%s, %d SMs\n", p.name, p.multiProcessorCount);
    for (int s = 1024; s <= S; s *= 2) {
        size_t n = (size_t)s * s; /* inputs multiples of 2^-8 in [-1, 1], exact in half, as lab 07's */
        g_ha.resize(n), g_hb.resize(n);
        for (size_t i = 0; i < n; i++) g_ha[i] = __float2half((float)((int)((i * 2654435761u) % 513) - 256) / 256.f);
        for (size_t i = 0; i < n; i++) g_hb[i] = __float2half((float)((int)((i * 40503u + 7) % 511) - 255) / 256.f);
        CK(cudaMemcpy(g_a, g_ha.data(), 2 * n, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(g_b, g_hb.data(), 2 * n, cudaMemcpyHostToDevice));
        double blas = time_ms([&] { cublas(s, s, s, g_ref, CUDA_R_32F); });
        double blas16 = time_ms([&] { cublas(s, s, s, g_c, CUDA_R_16F); });
        cublas(s, s, s, g_ref, CUDA_R_32F);
        CK(cudaDeviceSynchronize());
        printf("%5d cuBLAS (FP32 out) %.4f ms %.1f TFLOP/s; FP16 out %.1f TFLOP/s (flushed)\n", s, blas,
               2.0 * s * s * s / blas / 1e9, 2.0 * s * s * s / blas16 / 1e9);
        run_plain<64>(s, blas);
        run_tma<128, 3>(s, blas);
        run_tma<128, 4>(s, blas);
        run_specialised<4>(s, blas);
        run_specialised<3>(s, blas);
        run_persistent<false, 4>(s, blas);
        run_persistent<false, 3>(s, blas);
        run_persistent<true, 4>(s, blas);
        run_persistent<true, 3>(s, blas);
    }
    return 0;
}
