// wgmma.cu - the first study toward lab 12 (issue 27): Hopper's warpgroup MMA (wgmma) reading both
// operands from shared memory, the tiles put there by plain 16-byte copies in the 128-byte swizzled
// layout wgmma reads (the lab's stage 1), against cuBLAS in the same run. C = A B with A M x K
// row-major and B given as B^T, N x K row-major (both K-major, the layout wgmma reads without a
// transpose), BF16 inputs, FP32 accumulation and output. Sizes multiples of the tiles. Each C is
// checked against cuBLAS's at sampled elements, and both against a double-precision sum at a few.
// Stage 2 (tma<BM, STAGES>): the tiles brought by the tensor memory accelerator (TMA, the copy engine
// of cp.async.bulk.tensor) into a ring of STAGES shared-memory stages, each completing on an
// mbarrier, the MMAs of one k step in flight while the next waits for its tile.
// Built for sm_90a (wgmma exists only there) by scripts/studies/run.sh wgmma (with -lcuda: the
// tensor maps are made by the driver's cuTensorMapEncodeTiled).
#include "common.h"
#include <cstdint>
#include <cmath>
#include <cublas_v2.h>
#include <cuda.h>
#include <cuda_bf16.h>

typedef __nv_bfloat16 bf16;

/* A tile row of 64 bf16 is 128 bytes. In the 128-byte swizzle, each group of 8 rows (1024 bytes,
 * 1024-aligned) holds the 16-byte chunk c of its row r at chunk c ^ (r % 8): the byte offset of
 * chunk c of row r. */
static __device__ __forceinline__ uint32_t swizzled(int r, int c) { return r * 128 + ((c ^ (r & 7)) << 4); }

/* The shared-memory matrix descriptor of a K-major tile in the 128-byte swizzle: the start address
 * (bits 0-13, in 16 bytes), the leading-dimension byte offset (16, unused in this mode), the stride
 * between groups of 8 rows (1024 bytes, bits 32-45), the swizzle mode (1 = 128 bytes, bits 62-63).
 * A k step of 16 starts 32 bytes further along the row; the hardware applies the swizzle to the
 * address bits, which is why the tile must be 1024-aligned. */
static __device__ __forceinline__ uint64_t desc_of(const void *smem)
{
    uint64_t a = (uint64_t)__cvta_generic_to_shared(smem);
    return ((a & 0x3FFFF) >> 4) | ((uint64_t)(16 >> 4) << 16) | ((uint64_t)(1024 >> 4) << 32) | (1ull << 62);
}

static __device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
static __device__ __forceinline__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
static __device__ __forceinline__ void wgmma_wait_all() { asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory"); }
/* ordinary stores to shared memory, made visible to the tensor cores' (async proxy's) reads */
static __device__ __forceinline__ void fence_proxy_async() { asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory"); }
/* the accumulators pinned in place across the asynchronous MMA (no read or move of them crosses it) */
static __device__ __forceinline__ void pin(float (&d)[64])
{
#pragma unroll
    for (int i = 0; i < 64; i++) asm volatile("" : "+f"(d[i])::"memory");
}

/* d (+)= A B for a 64 x 128 tile of D and a k step of 16, A and B read from shared memory through
 * their descriptors; accumulate 0 overwrites d. Asynchronous: wgmma_wait before d is read. */
static __device__ __forceinline__ void wgmma_m64n128k16(float (&d)[64], uint64_t a, uint64_t b, int accumulate)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {"
                 "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
                 "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                 "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
                 "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
                 "}, %64, %65, p, 1, 1, 0, 0;\n}\n"
                 :
                   "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
                   "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
                   "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                   "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
                   "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
                   "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
                   "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
                   "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
                 : "l"(a), "l"(b), "r"(accumulate));
}

/* Stage 1: one warpgroup (128 threads) a BM x 128 tile of C, k steps of 64: the block copies A's
 * BM x 64 and B's 128 x 64 tiles to shared memory (16 bytes a thread a copy, swizzled), then issues
 * 4 k steps of 16 for each 64-row half, waits, and goes on. No overlap of copies and MMAs. */
template <int BM>
static __global__ void __launch_bounds__(128) stage1(int M, int N, int K, const bf16 *A, const bf16 *Bt, float *C)
{
    __shared__ __align__(1024) bf16 As[BM * 64];
    __shared__ __align__(1024) bf16 Bs[128 * 64];
    float d[BM / 64][64];
#pragma unroll
    for (int h = 0; h < BM / 64; h++)
#pragma unroll
        for (int i = 0; i < 64; i++) d[h][i] = 0.0f;
    int bm = blockIdx.y * BM, bn = blockIdx.x * 128, t = threadIdx.x;
    for (int k0 = 0; k0 < K; k0 += 64) {
#pragma unroll
        for (int i = 0; i < BM / 16; i++) {
            int r = t / 8 + 16 * i, c = t % 8;
            *(uint4 *)((char *)As + swizzled(r, c)) = *(const uint4 *)(A + (size_t)(bm + r) * K + k0 + c * 8);
        }
#pragma unroll
        for (int i = 0; i < 8; i++) {
            int r = t / 8 + 16 * i, c = t % 8;
            *(uint4 *)((char *)Bs + swizzled(r, c)) = *(const uint4 *)(Bt + (size_t)(bn + r) * K + k0 + c * 8);
        }
        fence_proxy_async();
        __syncthreads();
        wgmma_fence();
#pragma unroll
        for (int kk = 0; kk < 4; kk++)
#pragma unroll
            for (int h = 0; h < BM / 64; h++)
                wgmma_m64n128k16(d[h], desc_of((char *)As + h * 8192 + kk * 32), desc_of((char *)Bs + kk * 32), 1);
        wgmma_commit();
        wgmma_wait_all();
#pragma unroll
        for (int h = 0; h < BM / 64; h++) pin(d[h]);
        __syncthreads(); /* every MMA done before the next copies overwrite the tiles */
    }
    /* the accumulators' layout: warp w of the group holds rows 16 w .. 16 w + 15 of each 64-row
     * half; d[i] is row 16 w + lane / 4 + 8 ((i / 2) % 2), column 8 (i / 4) + 2 (lane % 4) + i % 2 */
    int w = t / 32, lane = t % 32;
#pragma unroll
    for (int h = 0; h < BM / 64; h++)
#pragma unroll
        for (int i = 0; i < 64; i += 2) {
            int row = bm + 64 * h + 16 * w + lane / 4 + 8 * ((i / 2) % 2), col = bn + 8 * (i / 4) + 2 * (lane % 4);
            *(float2 *)(C + (size_t)row * N + col) = make_float2(d[h][i], d[h][i + 1]);
        }
}

/* ---- stage 2: TMA and mbarriers */

static __device__ __forceinline__ uint32_t smem_u32(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }
static __device__ __forceinline__ void mbar_init(uint64_t *bar, int count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(smem_u32(bar)), "r"(count));
}
/* one arrival, and the bytes the copies completing on this barrier will bring */
static __device__ __forceinline__ void mbar_expect(uint64_t *bar, uint32_t bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(smem_u32(bar)), "r"(bytes) : "memory");
}
/* until the barrier's phase of this parity has completed */
static __device__ __forceinline__ void mbar_wait(uint64_t *bar, uint32_t parity)
{
    uint32_t done;
    do {
        asm volatile("{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\nselp.u32 %0, 1, 0, p;\n}\n"
                     : "=r"(done) : "r"(smem_u32(bar)), "r"(parity) : "memory");
    } while (!done);
}
/* the box at (c0, c1) (c0 the inner coordinate, in elements) of the tensor map's matrix, into dst,
 * completing on bar */
static __device__ __forceinline__ void tma_load(void *dst, const CUtensorMap *map, uint64_t *bar, int c0, int c1)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\n"
                 ::"r"(smem_u32(dst)), "l"((uint64_t)map), "r"(c0), "r"(c1), "r"(smem_u32(bar)) : "memory");
}
template <int N> static __device__ __forceinline__ void wgmma_wait()
{
    asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
}

template <int BM, int STAGES> constexpr int tma_smem() { return STAGES * (BM + 128) * 64 * 2 + 1024 + 64; }

/* One warpgroup a BM x 128 tile of C. Thread 0 keeps STAGES k tiles in flight: each stage's A and B
 * tiles (TMA boxes of 64 x BM and 64 x 128, swizzled by the copy engine as stage 1 swizzled by hand)
 * complete on the stage's mbarrier, whose phase flips each time the stage is filled. The MMAs of
 * k tile kt are issued, then those of kt - 1 waited for (one group stays in flight), and only then
 * is kt - 1's stage filled again, with k tile kt - 1 + STAGES. */
template <int BM, int STAGES>
static __global__ void __launch_bounds__(128) tma(int M, int N, int K, const __grid_constant__ CUtensorMap map_a,
                                                  const __grid_constant__ CUtensorMap map_b, float *C)
{
    extern __shared__ unsigned char raw[];
    unsigned char *base = (unsigned char *)(((uintptr_t)raw + 1023) & ~(uintptr_t)1023);
    bf16 *As = (bf16 *)base, *Bs = As + STAGES * BM * 64;
    uint64_t *full = (uint64_t *)(Bs + STAGES * 128 * 64);
    const uint32_t bytes = (BM + 128) * 64 * 2;
    int bm = blockIdx.y * BM, bn = blockIdx.x * 128, t = threadIdx.x, tiles = K / 64;
    if (t == 0) {
        for (int s = 0; s < STAGES; s++) mbar_init(&full[s], 1);
        asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
    }
    __syncthreads();
    if (t == 0)
        for (int s = 0; s < STAGES && s < tiles; s++) {
            mbar_expect(&full[s], bytes);
            tma_load(As + s * BM * 64, &map_a, &full[s], s * 64, bm);
            tma_load(Bs + s * 128 * 64, &map_b, &full[s], s * 64, bn);
        }
    float d[BM / 64][64];
#pragma unroll
    for (int h = 0; h < BM / 64; h++)
#pragma unroll
        for (int i = 0; i < 64; i++) d[h][i] = 0.0f;
    for (int kt = 0; kt < tiles; kt++) {
        int s = kt % STAGES;
        mbar_wait(&full[s], (kt / STAGES) & 1);
        wgmma_fence();
#pragma unroll
        for (int kk = 0; kk < 4; kk++)
#pragma unroll
            for (int h = 0; h < BM / 64; h++)
                wgmma_m64n128k16(d[h], desc_of(As + s * BM * 64 + h * 64 * 64 + kk * 16), desc_of(Bs + s * 128 * 64 + kk * 16), 1);
        wgmma_commit();
        wgmma_wait<1>(); /* k tile kt - 1's MMAs are done: its stage may be filled again */
#pragma unroll
        for (int h = 0; h < BM / 64; h++) pin(d[h]);
        __syncthreads();
        int next = kt - 1 + STAGES;
        if (t == 0 && kt >= 1 && next < tiles) {
            int sp = (kt - 1) % STAGES;
            mbar_expect(&full[sp], bytes);
            tma_load(As + sp * BM * 64, &map_a, &full[sp], next * 64, bm);
            tma_load(Bs + sp * 128 * 64, &map_b, &full[sp], next * 64, bn);
        }
    }
    wgmma_wait<0>();
#pragma unroll
    for (int h = 0; h < BM / 64; h++) pin(d[h]);
    int w = t / 32, lane = t % 32;
#pragma unroll
    for (int h = 0; h < BM / 64; h++)
#pragma unroll
        for (int i = 0; i < 64; i += 2) {
            int row = bm + 64 * h + 16 * w + lane / 4 + 8 * ((i / 2) % 2), col = bn + 8 * (i / 4) + 2 * (lane % 4);
            *(float2 *)(C + (size_t)row * N + col) = make_float2(d[h][i], d[h][i + 1]);
        }
}

/* a row-major rows x cols bf16 matrix, read in boxes of 64 columns (128 bytes) x box_rows rows,
 * swizzled 128 bytes */
static CUtensorMap tensor_map(const bf16 *p, int rows, int cols, int box_rows)
{
    CUtensorMap m;
    cuuint64_t dims[2] = {(cuuint64_t)cols, (cuuint64_t)rows}, strides[1] = {(cuuint64_t)cols * 2};
    cuuint32_t box[2] = {64, (cuuint32_t)box_rows}, elem[2] = {1, 1};
    CUresult r = cuTensorMapEncodeTiled(&m, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, (void *)p, dims, strides, box, elem,
                                        CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                        CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) { printf("cuTensorMapEncodeTiled: error %d\n", (int)r); exit(1); }
    return m;
}

static bf16 *g_a, *g_bt;
static float *g_c, *g_ref;
static cublasHandle_t g_h;

/* row-major C (M x N) = A (M x K) Bt^T is column-major C^T = Bt A^T: Bt read as column-major K x N
 * transposed, A as column-major K x M */
static void cublas(int m, int n, int k, void *c, cudaDataType ct)
{
    const float one = 1.0f, zero = 0.0f;
    cublasGemmEx(g_h, CUBLAS_OP_T, CUBLAS_OP_N, n, m, k, &one, g_bt, CUDA_R_16BF, k, g_a, CUDA_R_16BF, k, &zero, c, ct, n,
                 CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
}

static const char *check(int m, int n, int k, const std::vector<bf16> &ha, const std::vector<bf16> &hbt)
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
        for (int p = 0; p < k; p++) sum += (double)__bfloat162float(ha[(size_t)i * k + p]) * __bfloat162float(hbt[(size_t)j * k + p]);
        if (std::fabs(x[e] - sum) > 1e-4 * std::sqrt((double)k) + 1e-5 * std::fabs(sum)) return "WRONG (double)";
    }
    return "ok";
}

template <int BM> static void run(int s, double blas_ms, const std::vector<bf16> &ha, const std::vector<bf16> &hbt)
{
    CK(cudaMemset(g_c, 0, 4ull * s * s));
    dim3 grid(s / 128, s / BM);
    double ms = time_ms([&] { stage1<BM><<<grid, 128>>>(s, s, s, g_a, g_bt, g_c); });
    CK(cudaGetLastError());
    cudaFuncAttributes fa; CK(cudaFuncGetAttributes(&fa, stage1<BM>));
    int per_sm = 0; CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, stage1<BM>, 128, 0));
    printf("  %5d  stage 1, %3d x 128 x 64: regs=%3d blocks/SM=%d  %8.4f ms %6.1f TFLOP/s %5.1f%% of cuBLAS  %s\n", s, BM,
           fa.numRegs, per_sm, ms, 2.0 * s * s * s / ms / 1e9, 100 * blas_ms / ms, check(s, s, s, ha, hbt));
}

template <int BM, int STAGES>
static void run_tma(int s, double blas_ms, const std::vector<bf16> &ha, const std::vector<bf16> &hbt)
{
    CK(cudaMemset(g_c, 0, 4ull * s * s));
    CUtensorMap ma = tensor_map(g_a, s, s, BM), mb = tensor_map(g_bt, s, s, 128);
    const int smem = tma_smem<BM, STAGES>();
    CK(cudaFuncSetAttribute(tma<BM, STAGES>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    dim3 grid(s / 128, s / BM);
    double ms = time_ms([&] { tma<BM, STAGES><<<grid, 128, smem>>>(s, s, s, ma, mb, g_c); });
    CK(cudaGetLastError());
    cudaFuncAttributes fa; CK(cudaFuncGetAttributes(&fa, tma<BM, STAGES>));
    int per_sm = 0; CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, tma<BM, STAGES>, 128, smem));
    printf("  %5d  stage 2, %3d x 128 x 64, %d stages: regs=%3d blocks/SM=%d  %8.4f ms %6.1f TFLOP/s %5.1f%% of cuBLAS  %s\n",
           s, BM, STAGES, fa.numRegs, per_sm, ms, 2.0 * s * s * s / ms / 1e9, 100 * blas_ms / ms, check(s, s, s, ha, hbt));
}

int main()
{
    const int S = 8192;
    size_t N = (size_t)S * S;
    std::vector<bf16> ha(N), hbt(N);
    for (size_t i = 0; i < N; i++) ha[i] = __float2bfloat16((float)((i * 2654435761u) % 2001) / 1000.f - 1.f);
    for (size_t i = 0; i < N; i++) hbt[i] = __float2bfloat16((float)((i * 40503u + 7) % 1999) / 1000.f - 1.f);
    CK(cudaMalloc(&g_a, 2 * N)); CK(cudaMalloc(&g_bt, 2 * N)); CK(cudaMalloc(&g_c, 4 * N)); CK(cudaMalloc(&g_ref, 4 * N));
    if (cublasCreate(&g_h) != CUBLAS_STATUS_SUCCESS) { printf("cublasCreate failed\n"); return 1; }
    cudaDeviceProp p; CK(cudaGetDeviceProperties(&p, 0));
    printf("%s, %d SMs\n", p.name, p.multiProcessorCount);
    for (int s = 1024; s <= S; s *= 2) {
        /* the inputs of this size: the first s x s of each pattern, so the double sums read the same */
        std::vector<bf16> a((size_t)s * s), bt((size_t)s * s);
        std::copy(ha.begin(), ha.begin() + a.size(), a.begin());
        std::copy(hbt.begin(), hbt.begin() + bt.size(), bt.begin());
        CK(cudaMemcpy(g_a, a.data(), 2 * a.size(), cudaMemcpyHostToDevice));
        CK(cudaMemcpy(g_bt, bt.data(), 2 * bt.size(), cudaMemcpyHostToDevice));
        double blas = time_ms([&] { cublas(s, s, s, g_ref, CUDA_R_32F); });
        double blas16 = time_ms([&] { cublas(s, s, s, g_c, CUDA_R_16BF); });
        cublas(s, s, s, g_ref, CUDA_R_32F);
        CK(cudaDeviceSynchronize());
        printf("%5d cuBLAS (FP32 out) %.4f ms %.1f TFLOP/s; BF16 out %.1f TFLOP/s (flushed)\n", s, blas,
               2.0 * s * s * s / blas / 1e9, 2.0 * s * s * s / blas16 / 1e9);
        run<64>(s, blas, a, bt);
        run<128>(s, blas, a, bt);
        run_tma<128, 4>(s, blas, a, bt);
        run_tma<128, 3>(s, blas, a, bt);
        run_tma<64, 4>(s, blas, a, bt);
    }
    return 0;
}
