/* gpu_probe.cu - what the scorer knows about the GPU, measured in a process of its own (the
 * scorer itself never touches CUDA, because it forks runners).
 *
 *   gpu-probe            device facts: name, arch, multiprocessors, L2, other processes on it
 *   gpu-probe --copy     ... and device-to-device copy bandwidth (bytes read + bytes written), and the
 *                        FP32 peak (FFMA, two flops each) a kernel of independent FMAs reaches
 *   gpu-probe --blas     ... and cuBLAS SGEMM (no TF32) and HGEMM (fp16 in, fp32 accumulate) rates
 *   gpu-probe --gemm sgemm|hgemm M N K ALPHA BETA [IN OUT]
 *                        cuBLAS's rate at that shape (gemm_gflops); with IN (A, B and, for sgemm,
 *                        C, row-major, as the scorer packs them) also OUT: C = alpha A B + beta C
 *                        and |alpha| |A||B| + |beta| |C| (for the error bound), M x N floats each
 *   gpu-probe --vendor cub-scan 0 N 0             CUB's exclusive scan of N ints (lab 10)
 *   gpu-probe --vendor cublas-transpose M N 0     cuBLAS's geam transposing an M x N float matrix (lab 08)
 *                        each prints the median seconds of a call (vendor_seconds) on data it makes
 *   gpu-probe --pipeline N DEGREE
 *                        the three parts of moving N floats through the GPU and back: pinned
 *                        host-to-device copy (h2d_s), Horner's rule of that degree on each element
 *                        (kernel_s), device-to-host copy (d2h_s), each timed alone; and what
 *                        creating and destroying a stream costs (stream_create_us)
 *   gpu-probe --pipeline-matvec M N
 *                        the same three parts for y = A x in double, A (M x N) and x in host memory:
 *                        the copy in of A and x, a warp-per-row kernel, the copy out of y
 *
 * Prints "key = value" lines; "devices = 0" (and why) where there is no usable GPU. */
#define CUBLAS_CHECK_WANTED
#include "cuda_check.h"
#include "gpu_probe_poly.h"

#include <cub/device/device_scan.cuh>
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <algorithm>
#include <chrono>
#include <cstring>
#include <unistd.h>
#include <vector>

extern "C" double wb_gpu_time(void (*f)(void *), void *arg); /* gpu_kernels.cu: as a lab's calls are timed */

template <class F> static void call(void *f) { (*(F *)f)(); }

/* Median time in seconds of `reps` runs of f, after two warm-ups, each timed as the runner times
 * a lab's call. */
template <class F> static double median_time(F f, int reps)
{
    std::vector<double> t;
    for (int r = -2; r < reps; r++) {
        double s = wb_gpu_time(call<F>, &f);
        if (r >= 0) t.push_back(s);
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

/* Compute processes on the GPU other than this one, from nvidia-smi; -1 if it can't tell. */
static int other_processes(void)
{
    FILE *p = popen("nvidia-smi --query-compute-apps=pid --format=csv,noheader 2>/dev/null", "r");
    if (!p) return -1;
    int n = 0, pid;
    char line[256];
    while (fgets(line, sizeof line, p))
        if (sscanf(line, "%d", &pid) == 1 && pid != (int)getpid()) n++;
    return pclose(p) == 0 ? n : -1;
}

static double copy_gbs(size_t bytes)
{
    void *a, *b;
    CUDA_CHECK(cudaMalloc(&a, bytes));
    CUDA_CHECK(cudaMalloc(&b, bytes));
    CUDA_CHECK(cudaMemset(a, 1, bytes));
    double t = median_time([&] { CUDA_CHECK(cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice)); }, 20);
    CUDA_CHECK(cudaFree(a));
    CUDA_CHECK(cudaFree(b));
    return 2.0 * bytes / t * 1e-9;
}

/* Eight independent chains of FMAs a thread, every SM full (2048 threads): enough in flight to hide
 * the FMA pipe's latency, so the rate is the device's FP32 issue rate. a and b come at run time,
 * and the sum is kept, so nothing folds away. */
__global__ static void ffma_chains(float *out, int iters, float a, float b)
{
    float x[8];
    for (int c = 0; c < 8; c++) x[c] = threadIdx.x * 1e-3f + c;
#pragma unroll 4
    for (int i = 0; i < iters; i++)
#pragma unroll
        for (int c = 0; c < 8; c++) x[c] = fmaf(x[c], a, b);
    float sum = 0;
    for (int c = 0; c < 8; c++) sum += x[c];
    if (sum == 1234.5f) out[0] = sum;
}

/* The FP32 peak in GFLOP/s: the median of five runs of ffma_chains, two flops an FMA. */
static double fp32_gflops(int sms)
{
    float *out;
    CUDA_CHECK(cudaMalloc(&out, sizeof *out));
    const int blocks = 8 * sms, threads = 256, iters = 16384;
    double t = median_time([&] {
        ffma_chains<<<blocks, threads>>>(out, iters, 0.9999f, 1e-4f);
        CUDA_CHECK_LAST();
    }, 5);
    CUDA_CHECK(cudaFree(out));
    return 2.0 * 8 * iters * (double)blocks * threads / t * 1e-9;
}

__global__ static void fill(float *p, size_t n, float scale)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        p[i] = scale * (float)((i * 2654435761u) % 1000) / 1000.0f - 0.5f * scale;
}
__global__ static void to_half(const float *s, __half *d, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        d[i] = __float2half(s[i]);
}

/* SGEMM and HGEMM at n x n x n on random-ish (not zero) data, GFLOP/s. */
static void gemm_rates(int n, double *sgemm, double *hgemm)
{
    size_t nn = (size_t)n * n;
    float *a, *b, *c;
    __half *ha, *hb;
    CUDA_CHECK(cudaMalloc(&a, nn * 4));
    CUDA_CHECK(cudaMalloc(&b, nn * 4));
    CUDA_CHECK(cudaMalloc(&c, nn * 4));
    CUDA_CHECK(cudaMalloc(&ha, nn * 2));
    CUDA_CHECK(cudaMalloc(&hb, nn * 2));
    fill<<<1024, 256>>>(a, nn, 1.0f);
    CUDA_CHECK_LAST();
    fill<<<1024, 256>>>(b, nn, 2.0f);
    CUDA_CHECK_LAST();
    to_half<<<1024, 256>>>(a, ha, nn);
    CUDA_CHECK_LAST();
    to_half<<<1024, 256>>>(b, hb, nn);
    CUDA_CHECK_LAST();
    cublasHandle_t h;
    CUBLAS_CHECK(cublasCreate(&h));
    CUBLAS_CHECK(cublasSetMathMode(h, CUBLAS_PEDANTIC_MATH)); /* plain FP32: no TF32 tensor cores */
    const float one = 1, zero = 0;
    double flops = 2.0 * n * (double)n * n;
    *sgemm = flops / median_time([&] {
        CUBLAS_CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, b, n, &zero, c, n));
    }, 10) * 1e-9;
    CUBLAS_CHECK(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH));
    *hgemm = flops / median_time([&] {
        CUBLAS_CHECK(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, ha, CUDA_R_16F, n, hb, CUDA_R_16F, n,
                                  &zero, c, CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    }, 10) * 1e-9;
    CUBLAS_CHECK(cublasDestroy(h));
    CUDA_CHECK(cudaFree(a));
    CUDA_CHECK(cudaFree(b));
    CUDA_CHECK(cudaFree(c));
    CUDA_CHECK(cudaFree(ha));
    CUDA_CHECK(cudaFree(hb));
}

/* Row-major C = alpha A B + beta C through column-major cuBLAS: C^T = B^T A^T, so B comes first. */
static void gemm(cublasHandle_t h, bool half, int m, int n, int k, float alpha, const void *a, const void *b,
                 float beta, float *c)
{
    if (half)
        CUBLAS_CHECK(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, b, CUDA_R_16F, n, a, CUDA_R_16F, k,
                                  &beta, c, CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    else
        CUBLAS_CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, (const float *)b, n, (const float *)a,
                                 k, &beta, c, n));
}

__global__ static void absolute(float *p, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        p[i] = fabsf(p[i]);
}
__global__ static void absolute_half(__half *p, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        p[i] = __habs(p[i]);
}

/* --gemm: see the top of the file. */
static int gemm_mode(int argc, char **argv)
{
    if (argc != 8 && argc != 10) {
        fprintf(stderr, "usage: gpu-probe --gemm sgemm|hgemm M N K ALPHA BETA [IN OUT]\n");
        return 2;
    }
    bool half = !strcmp(argv[2], "hgemm");
    int m = atoi(argv[3]), n = atoi(argv[4]), k = atoi(argv[5]);
    float alpha = (float)atof(argv[6]), beta = half ? 0.0f : (float)atof(argv[7]);
    size_t es = half ? 2 : 4, na = (size_t)m * k, nb = (size_t)k * n, nc = (size_t)m * n;
    char *a, *b;
    float *c, *c0;
    CUDA_CHECK(cudaMalloc(&a, na * es));
    CUDA_CHECK(cudaMalloc(&b, nb * es));
    CUDA_CHECK(cudaMalloc(&c, nc * 4));
    CUDA_CHECK(cudaMalloc(&c0, nc * 4));
    cublasHandle_t h;
    CUBLAS_CHECK(cublasCreate(&h));
    CUBLAS_CHECK(cublasSetMathMode(h, half ? CUBLAS_DEFAULT_MATH : CUBLAS_PEDANTIC_MATH)); /* no TF32 */
    if (argc == 10) {
        std::vector<char> in((na + nb) * es + (half ? 0 : nc * 4));
        FILE *f = fopen(argv[8], "rb");
        if (!f || fread(in.data(), 1, in.size(), f) != in.size()) {
            fprintf(stderr, "gpu-probe: cannot read %s\n", argv[8]);
            return 1;
        }
        fclose(f);
        CUDA_CHECK(cudaMemcpy(a, in.data(), na * es, cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaMemcpy(b, in.data() + na * es, nb * es, cudaMemcpyHostToDevice));
        CUDA_CHECK(half ? cudaMemset(c0, 0, nc * 4)
                        : cudaMemcpy(c0, in.data() + (na + nb) * es, nc * 4, cudaMemcpyHostToDevice));
        std::vector<float> out(2 * nc);
        CUDA_CHECK(cudaMemcpy(c, c0, nc * 4, cudaMemcpyDeviceToDevice));
        gemm(h, half, m, n, k, alpha, a, b, beta, c);
        CUDA_CHECK(cudaMemcpy(out.data(), c, nc * 4, cudaMemcpyDeviceToHost));
        /* The magnitude |alpha| |A||B| + |beta| |C0|, by the same product on absolute values. */
        if (half) {
            absolute_half<<<1024, 256>>>((__half *)a, na);
            CUDA_CHECK_LAST();
            absolute_half<<<1024, 256>>>((__half *)b, nb);
        } else {
            absolute<<<1024, 256>>>((float *)a, na);
            CUDA_CHECK_LAST();
            absolute<<<1024, 256>>>((float *)b, nb);
        }
        CUDA_CHECK_LAST();
        absolute<<<1024, 256>>>(c0, nc);
        CUDA_CHECK_LAST();
        gemm(h, half, m, n, k, fabsf(alpha), a, b, fabsf(beta), c0);
        CUDA_CHECK(cudaMemcpy(out.data() + nc, c0, nc * 4, cudaMemcpyDeviceToHost));
        /* The rate below on the inputs themselves, not on their absolute values: on a GPU whose
         * clocks are held by its power limit, the tensor cores' rate depends on the data (fewer
         * bits toggling, less power): cuBLAS ran 14% faster on |A| and |B| at 8192^3 on an H200
         * (docs/BENCHMARKS.md, the thirty-sixth session). */
        CUDA_CHECK(cudaMemcpy(a, in.data(), na * es, cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaMemcpy(b, in.data() + na * es, nb * es, cudaMemcpyHostToDevice));
        f = fopen(argv[9], "wb");
        if (!f || fwrite(out.data(), 4, out.size(), f) != out.size() || fclose(f)) {
            fprintf(stderr, "gpu-probe: cannot write %s\n", argv[9]);
            return 1;
        }
    } else {
        fill<<<1024, 256>>>(c0, nc, 1.0f);
        CUDA_CHECK_LAST();
        if (half) { /* values that vary, as a lab's do: on a power-limited GPU the rate depends on them */
            float *tmp;
            CUDA_CHECK(cudaMalloc(&tmp, (na > nb ? na : nb) * 4));
            fill<<<1024, 256>>>(tmp, na, 2.0f);
            CUDA_CHECK_LAST();
            to_half<<<1024, 256>>>(tmp, (__half *)a, na);
            CUDA_CHECK_LAST();
            fill<<<1024, 256>>>(tmp, nb, 2.0f);
            CUDA_CHECK_LAST();
            to_half<<<1024, 256>>>(tmp, (__half *)b, nb);
            CUDA_CHECK_LAST();
            CUDA_CHECK(cudaFree(tmp));
        } else {
            fill<<<1024, 256>>>((float *)a, na, 1.0f);
            CUDA_CHECK_LAST();
            fill<<<1024, 256>>>((float *)b, nb, 2.0f);
            CUDA_CHECK_LAST();
        }
    }
    double t = median_time([&] { gemm(h, half, m, n, k, alpha, a, b, beta, c); }, 10);
    printf("gemm_gflops = %.1f\n", 2.0 * m * n * (double)k / t * 1e-9);
    CUBLAS_CHECK(cublasDestroy(h));
    CUDA_CHECK(cudaFree(a));
    CUDA_CHECK(cudaFree(b));
    CUDA_CHECK(cudaFree(c));
    CUDA_CHECK(cudaFree(c0));
    return 0;
}

/* The pipeline's kernel: y = c[0] + c[1] x + ... + c[degree] x^degree by Horner's rule, one element
 * a thread. Every thread of a warp reads the same coefficient: constant memory broadcasts it. */
#define PROBE_MAX_DEGREE 4096
__constant__ static float coef[PROBE_MAX_DEGREE + 1];

__global__ static void horner(int n, int degree, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i], acc = coef[degree];
#pragma unroll 16
    for (int k = degree - 1; k >= 0; k--) acc = fmaf(acc, v, coef[k]);
    y[i] = acc;
}


/* --pipeline: see the top of the file. */
static int pipeline_mode(int argc, char **argv)
{
    int n = argc == 4 ? atoi(argv[2]) : 0, degree = argc == 4 ? atoi(argv[3]) : -1;
    if (n < 1 || degree < 0 || degree > PROBE_MAX_DEGREE) {
        fprintf(stderr, "usage: gpu-probe --pipeline N DEGREE (1 <= N, 0 <= DEGREE <= %d)\n", PROBE_MAX_DEGREE);
        return 2;
    }
    size_t bytes = (size_t)n * sizeof(float);
    std::vector<float> c(degree + 1);
    for (int k = 0; k <= degree; k++) c[k] = (float)((k * 7919) % 1000) / 1000.0f - 0.5f;
    CUDA_CHECK(cudaMemcpyToSymbol(coef, c.data(), c.size() * sizeof(float)));
    int unrolled = degree == poly_unrolled_degree(); /* the lab's degree: its kernels, fully unrolled */
    if (unrolled) poly_set_coefficients(c.data(), degree);
    float *hx, *hy, *dx, *dy;
    CUDA_CHECK(cudaMallocHost(&hx, bytes));
    CUDA_CHECK(cudaMallocHost(&hy, bytes));
    CUDA_CHECK(cudaMalloc(&dx, bytes));
    CUDA_CHECK(cudaMalloc(&dy, bytes));
    for (int i = 0; i < n; i++) hx[i] = (float)((i * 2654435761u) % 2000) / 1000.0f - 1.0f;
    cudaStream_t s; /* a blocking stream: the timer's events on the default stream wait for it */
    CUDA_CHECK(cudaStreamCreate(&s));
    double h2d = median_time([&] { CUDA_CHECK(cudaMemcpyAsync(dx, hx, bytes, cudaMemcpyHostToDevice, s)); }, 10);
    double kernel = median_time([&] {
        if (unrolled) poly_unrolled(1, n, dx, dy, s);
        else horner<<<(n + 255) / 256, 256, 0, s>>>(n, degree, dx, dy);
        CUDA_CHECK_LAST();
    }, 10);
    double best = kernel; /* the fastest kernel of those below: the bound of an impossible time */
    if (unrolled) {
        best = fmin(best, median_time([&] { poly_unrolled(2, n, dx, dy, s); }, 10));
        best = fmin(best, median_time([&] { poly_unrolled(4, n, dx, dy, s); }, 10));
        CUDA_CHECK_LAST();
    }
    double d2h = median_time([&] { CUDA_CHECK(cudaMemcpyAsync(hy, dy, bytes, cudaMemcpyDeviceToHost, s)); }, 10);
    /* Creating streams: the host-side cost a pipeline pays once (or every call, if it creates them there). */
    enum { STREAMS = 64 };
    cudaStream_t many[STREAMS];
    auto t0 = std::chrono::steady_clock::now();
    for (int k = 0; k < STREAMS; k++) CUDA_CHECK(cudaStreamCreateWithFlags(&many[k], cudaStreamNonBlocking));
    for (int k = 0; k < STREAMS; k++) CUDA_CHECK(cudaStreamDestroy(many[k]));
    double create = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / STREAMS;
    printf("h2d_s = %.6g\nkernel_s = %.6g\nd2h_s = %.6g\nstream_create_us = %.3g\nkernel_best_s = %.6g\n", h2d, kernel,
           d2h, create * 1e6, best);
    CUDA_CHECK(cudaStreamDestroy(s));
    CUDA_CHECK(cudaFreeHost(hx));
    CUDA_CHECK(cudaFreeHost(hy));
    CUDA_CHECK(cudaFree(dx));
    CUDA_CHECK(cudaFree(dy));
    return 0;
}

/* The matvec pipeline's kernel: a warp a row, lanes striding along it, a shuffle sum. */
__global__ static void matvec_rows(int m, int n, const double *A, const double *x, double *y)
{
    int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32, lane = threadIdx.x % 32;
    if (row >= m) return;
    double acc = 0;
    for (int j = lane; j < n; j += 32) acc += A[(size_t)row * n + j] * x[j];
    for (int o = 16; o > 0; o /= 2) acc += __shfl_down_sync(0xffffffffu, acc, o);
    if (lane == 0) y[row] = acc;
}

/* --pipeline-matvec: see the top of the file. A and x sit in one pinned buffer, copied in as one. */
static int pipeline_matvec_mode(int argc, char **argv)
{
    long m = argc == 4 ? atol(argv[2]) : 0, n = argc == 4 ? atol(argv[3]) : 0;
    if (m < 1 || n < 1) {
        fprintf(stderr, "usage: gpu-probe --pipeline-matvec M N (1 <= M, N)\n");
        return 2;
    }
    size_t in = ((size_t)m * n + n) * sizeof(double), out = (size_t)m * sizeof(double);
    double *hin, *hy, *din, *dy;
    CUDA_CHECK(cudaMallocHost(&hin, in));
    CUDA_CHECK(cudaMallocHost(&hy, out));
    CUDA_CHECK(cudaMalloc(&din, in));
    CUDA_CHECK(cudaMalloc(&dy, out));
    for (size_t i = 0; i < in / sizeof(double); i++) hin[i] = (double)((i * 2654435761u) % 2000) / 1000.0 - 1.0;
    cudaStream_t s;
    CUDA_CHECK(cudaStreamCreate(&s));
    double h2d = median_time([&] { CUDA_CHECK(cudaMemcpyAsync(din, hin, in, cudaMemcpyHostToDevice, s)); }, 10);
    double kernel = median_time([&] {
        matvec_rows<<<(unsigned)((m + 7) / 8), 256, 0, s>>>((int)m, (int)n, din, din + (size_t)m * n, dy);
        CUDA_CHECK_LAST();
    }, 10);
    double d2h = median_time([&] { CUDA_CHECK(cudaMemcpyAsync(hy, dy, out, cudaMemcpyDeviceToHost, s)); }, 10);
    printf("h2d_s = %.6g\nkernel_s = %.6g\nd2h_s = %.6g\nkernel_best_s = %.6g\n", h2d, kernel, d2h, kernel);
    CUDA_CHECK(cudaStreamDestroy(s));
    CUDA_CHECK(cudaFreeHost(hin));
    CUDA_CHECK(cudaFreeHost(hy));
    CUDA_CHECK(cudaFree(din));
    CUDA_CHECK(cudaFree(dy));
    return 0;
}

/* --vendor: see the top of the file. Inputs are whatever fill makes: the libraries' speed does not
 * depend on the values. */
static int vendor_mode(int argc, char **argv)
{
    long m = argc == 6 ? atol(argv[3]) : 0, n = argc == 6 ? atol(argv[4]) : 0;
    double t = 0;
    if (argc == 6 && !strcmp(argv[2], "cub-scan") && n >= 1) {
        int *in, *out;
        void *temp = nullptr;
        size_t temp_bytes = 0;
        CUDA_CHECK(cudaMalloc(&in, n * sizeof(int)));
        CUDA_CHECK(cudaMalloc(&out, n * sizeof(int)));
        CUDA_CHECK(cudaMemset(in, 1, n * sizeof(int)));
        CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp, temp_bytes, in, out, (int)n));
        CUDA_CHECK(cudaMalloc(&temp, temp_bytes));
        t = median_time([&] { CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp, temp_bytes, in, out, (int)n)); }, 10);
        printf("vendor = CUB DeviceScan::ExclusiveSum (CCCL %d.%d.%d)\n", CCCL_MAJOR_VERSION, CCCL_MINOR_VERSION,
               CCCL_PATCH_VERSION);
        CUDA_CHECK(cudaFree(temp));
        CUDA_CHECK(cudaFree(in));
        CUDA_CHECK(cudaFree(out));
    } else if (argc == 6 && !strcmp(argv[2], "cublas-transpose") && m >= 1 && n >= 1) {
        float *a, *c;
        CUDA_CHECK(cudaMalloc(&a, m * n * sizeof(float)));
        CUDA_CHECK(cudaMalloc(&c, m * n * sizeof(float)));
        fill<<<1024, 256>>>(a, (size_t)(m * n), 1.0f);
        CUDA_CHECK_LAST();
        cublasHandle_t h;
        CUBLAS_CHECK(cublasCreate(&h));
        const float one = 1, zero = 0;
        /* row-major in (m x n) is column-major n x m; its transpose, column-major m x n, is row-major out */
        t = median_time([&] {
            CUBLAS_CHECK(cublasSgeam(h, CUBLAS_OP_T, CUBLAS_OP_N, (int)m, (int)n, &one, a, (int)n, &zero, c, (int)m, c,
                                     (int)m));
        }, 10);
        printf("vendor = cuBLAS geam (transpose)\n");
        CUBLAS_CHECK(cublasDestroy(h));
        CUDA_CHECK(cudaFree(a));
        CUDA_CHECK(cudaFree(c));
    } else {
        fprintf(stderr, "usage: gpu-probe --vendor cub-scan|cublas-transpose M N K\n");
        return 2;
    }
    printf("vendor_seconds = %.9g\n", t);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--gemm")) return gemm_mode(argc, argv);
    if (argc > 1 && !strcmp(argv[1], "--pipeline")) return pipeline_mode(argc, argv);
    if (argc > 1 && !strcmp(argv[1], "--pipeline-matvec")) return pipeline_matvec_mode(argc, argv);
    if (argc > 1 && !strcmp(argv[1], "--vendor")) return vendor_mode(argc, argv);
    bool want_copy = false, want_blas = false;
    for (int i = 1; i < argc; i++) {
        want_copy |= !strcmp(argv[i], "--copy") || !strcmp(argv[i], "--blas");
        want_blas |= !strcmp(argv[i], "--blas");
    }
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        printf("devices = 0\nwhy = %s\n", e != cudaSuccess ? cudaGetErrorString(e) : "no CUDA device");
        return 0;
    }
    cudaDeviceProp p;
    CUDA_CHECK(cudaGetDeviceProperties(&p, 0));
    printf("devices = %d\nname = %s\narch = %d%d\nsms = %d\nl2_bytes = %d\nmemory_bytes = %zu\nother_processes = %d\n",
           count, p.name, p.major, p.minor, p.multiProcessorCount, p.l2CacheSize, p.totalGlobalMem, other_processes());
    int driver = 0, runtime = 0;
    CUDA_CHECK(cudaDriverGetVersion(&driver));
    CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
    printf("driver_cuda = %d.%d\nruntime_cuda = %d.%d\n", driver / 1000, driver % 1000 / 10, runtime / 1000,
           runtime % 1000 / 10);
    fflush(stdout);
    if (want_copy) printf("copy_gbs = %.1f\nfp32_gflops = %.1f\n", copy_gbs((size_t)1 << 30),
                          fp32_gflops(p.multiProcessorCount));
    if (want_blas) {
        double s, h;
        gemm_rates(8192, &s, &h);
        printf("sgemm_gflops = %.1f\nhgemm_gflops = %.1f\n", s, h);
    }
    return 0;
}
