/* hopper_gemm.cu - lab 12's reference: C = A B (half in, float out) on a Hopper GPU's tensor cores
 * through wgmma, four ways. Read handouts/12-hopper-gemm.md. scripts/studies/wgmma.cu includes this
 * file whole and times its kernels at other tiles and depths against cuBLAS (docs/BENCHMARKS.md,
 * "Toward lab 12"). A is read K-major, B MN-major (wgmma's transposed B: B is K x N row-major).
 * The tensor maps are made by the driver's cuTensorMapEncodeTiled (linked with -lcuda). */
#include "hopper_gemm.h"
#include "hopper_ptx.h"

#include <cstdint>
#include <cstring>
#include <cuda.h>
#include <cuda_runtime.h>

/* A tile row of 64 halves is 128 bytes. In the 128-byte swizzle, each group of 8 rows (1024 bytes,
 * 1024-aligned) holds the 16-byte chunk c of its row r at chunk c ^ (r % 8): the byte offset of
 * chunk c of row r. A's tile: BM rows of 64 k. B's tile: blocks of 64 columns, each 64 rows of k
 * by 64 columns (8 KiB), one after the other. */
static __device__ __forceinline__ uint32_t swizzled(int r, int c) { return r * 128 + ((c ^ (r & 7)) << 4); }

/* Shared-memory matrix descriptors in the 128-byte swizzle: the start address (bits 0-13, in 16
 * bytes), the leading byte offset (bits 16-29), the stride byte offset (bits 32-45), the mode
 * (1 = 128 bytes, bits 62-63). K-major (A): 8-row groups 1024 bytes apart; the leading offset is
 * unused. MN-major (B): 8-k groups 1024 bytes apart, 64-column blocks 8192 bytes apart. A k step
 * of 16 starts 32 bytes along A's rows and 2048 bytes (16 rows) down B's blocks. The hardware
 * swizzles the address bits, which is why every tile is 1024-aligned. */
static __device__ __forceinline__ uint64_t desc(const void *smem, uint32_t lead, uint32_t stride)
{
    uint64_t a = (uint64_t)__cvta_generic_to_shared(smem);
    return ((a & 0x3FFFF) >> 4) | ((uint64_t)(lead >> 4) << 16) | ((uint64_t)(stride >> 4) << 32) | (1ull << 62);
}
static __device__ __forceinline__ uint64_t desc_a(const void *p) { return desc(p, 16, 1024); }
static __device__ __forceinline__ uint64_t desc_b(const void *p) { return desc(p, 8192, 1024); }

/* The accumulators of a 64 x N tile: warp w of the group holds rows 16 w .. 16 w + 15; d[i] is row
 * 16 w + lane / 4 + 8 ((i / 2) % 2), column 8 (i / 4) + 2 (lane % 4) + i % 2. */
template <int R> static __device__ __forceinline__ void store_tile(float (&d)[R], float *C, int N, int row0, int col0, int t)
{
    int w = t / 32, lane = t % 32;
#pragma unroll
    for (int i = 0; i < R; i += 2) {
        int row = row0 + 16 * w + lane / 4 + 8 * ((i / 2) % 2), col = col0 + 8 * (i / 4) + 2 * (lane % 4);
        *(float2 *)(C + (size_t)row * N + col) = make_float2(d[i], d[i + 1]);
    }
}

/* ---- stage 1: plain copies */

template <int BM>
static __global__ void __launch_bounds__(128) plain(int M, int N, int K, const __half *A, const __half *B, float *C)
{
    __shared__ __align__(1024) __half As[BM * 64];
    __shared__ __align__(1024) __half Bs[64 * 128];
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
        for (int i = 0; i < 8; i++) { /* 64 rows of k x 16 chunks of 8 columns */
            int idx = t + 128 * i, r = idx / 16, cc = idx % 16;
            *(uint4 *)((char *)Bs + (cc / 8) * 8192 + swizzled(r, cc % 8)) =
                *(const uint4 *)(B + (size_t)(k0 + r) * N + bn + cc * 8);
        }
        fence_proxy_async();
        __syncthreads();
        wgmma_fence();
#pragma unroll
        for (int kk = 0; kk < 4; kk++)
#pragma unroll
            for (int h = 0; h < BM / 64; h++)
                wgmma_m64n128k16(d[h], desc_a((char *)As + h * 8192 + kk * 32), desc_b((char *)Bs + kk * 2048));
        wgmma_commit();
        wgmma_wait<0>();
#pragma unroll
        for (int h = 0; h < BM / 64; h++) pin(d[h]);
        __syncthreads(); /* every MMA done before the next copies overwrite the tiles */
    }
#pragma unroll
    for (int h = 0; h < BM / 64; h++) store_tile(d[h], C, N, bm + 64 * h, bn, t);
}

/* a stage's tiles: A's BM x 64 at (bm, k0), B's 64 x BN at (k0, bn) in blocks of 64 columns */
template <int BM, int BN>
static __device__ __forceinline__ void load_stage(__half *As, __half *Bs, const CUtensorMap *ma, const CUtensorMap *mb,
                                                  uint64_t *full, int bm, int bn, int k0)
{
    mbar_expect(full, (BM + BN) * 64 * 2);
    tma_load(As, ma, full, k0, bm);
#pragma unroll
    for (int j = 0; j < BN / 64; j++) tma_load(Bs + j * 64 * 64, mb, full, bn + 64 * j, k0);
}

/* ---- stage 2: TMA into a ring of stages, one warpgroup */

template <int BM, int STAGES> constexpr int tma_smem() { return STAGES * (BM + 128) * 64 * 2 + 1024 + 64; }

template <int BM, int STAGES>
static __global__ void __launch_bounds__(128) tma(int M, int N, int K, const __grid_constant__ CUtensorMap ma,
                                                  const __grid_constant__ CUtensorMap mb, float *C)
{
    extern __shared__ unsigned char raw[];
    __half *As = (__half *)(((uintptr_t)raw + 1023) & ~(uintptr_t)1023), *Bs = As + STAGES * BM * 64;
    uint64_t *full = (uint64_t *)(Bs + STAGES * 64 * 128);
    int bm = blockIdx.y * BM, bn = blockIdx.x * 128, t = threadIdx.x, tiles = K / 64;
    if (t == 0) {
        for (int s = 0; s < STAGES; s++) mbar_init(&full[s], 1);
        fence_mbarrier_init();
    }
    __syncthreads();
    if (t == 0)
        for (int s = 0; s < STAGES && s < tiles; s++)
            load_stage<BM, 128>(As + s * BM * 64, Bs + s * 64 * 128, &ma, &mb, &full[s], bm, bn, s * 64);
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
                wgmma_m64n128k16(d[h], desc_a(As + s * BM * 64 + h * 64 * 64 + kk * 16), desc_b(Bs + s * 64 * 128 + kk * 16 * 64));
        wgmma_commit();
        wgmma_wait<1>(); /* k tile kt - 1's MMAs are done: its stage may be filled again */
#pragma unroll
        for (int h = 0; h < BM / 64; h++) pin(d[h]);
        __syncthreads();
        int next = kt - 1 + STAGES, sp = (kt + STAGES - 1) % STAGES;
        if (t == 0 && kt >= 1 && next < tiles)
            load_stage<BM, 128>(As + sp * BM * 64, Bs + sp * 64 * 128, &ma, &mb, &full[sp], bm, bn, next * 64);
    }
    wgmma_wait<0>();
#pragma unroll
    for (int h = 0; h < BM / 64; h++) pin(d[h]);
#pragma unroll
    for (int h = 0; h < BM / 64; h++) store_tile(d[h], C, N, bm + 64 * h, bn, t);
}

/* ---- stage 3: a producer warpgroup and two consumers, 128 x 256 tiles */

/* A consumer warpgroup's k step (the ring's position `it`): wait for the stage's tiles, issue the
 * four MMAs of its 64 rows (c: 0 or 1) of the 128 x 256 tile, and leave them in flight, the
 * previous step's done (wgmma_wait<1>): that step's stage may be released. Stages 3 and 4. */
template <int STAGES>
static __device__ __forceinline__ void consume(float (&d)[128], const __half *As, const __half *Bs, uint64_t *full, int it, int c)
{
    int s = it % STAGES;
    mbar_wait(&full[s], (it / STAGES) & 1);
    wgmma_fence();
#pragma unroll
    for (int kk = 0; kk < 4; kk++)
        wgmma_m64n256k16(d, desc_a(As + s * 128 * 64 + c * 64 * 64 + kk * 16), desc_b(Bs + s * 64 * 256 + kk * 16 * 64));
    wgmma_commit();
    wgmma_wait<1>();
    pin(d);
}

template <int STAGES> constexpr int spec_smem() { return STAGES * (128 + 256) * 64 * 2 + 1024 + 128; }

template <int STAGES>
static __global__ void __launch_bounds__(384, 1) specialised(int M, int N, int K, const __grid_constant__ CUtensorMap ma,
                                                              const __grid_constant__ CUtensorMap mb, float *C)
{
    extern __shared__ unsigned char raw[];
    __half *As = (__half *)(((uintptr_t)raw + 1023) & ~(uintptr_t)1023), *Bs = As + STAGES * 128 * 64;
    uint64_t *full = (uint64_t *)(Bs + STAGES * 64 * 256), *empty = full + STAGES;
    int bm = blockIdx.y * 128, bn = blockIdx.x * 256, wg = threadIdx.x / 128, t = threadIdx.x % 128, tiles = K / 64;
    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; s++) mbar_init(&full[s], 1), mbar_init(&empty[s], 256);
        fence_mbarrier_init();
    }
    __syncthreads();
    if (wg == 0) { /* the producer: 40 registers a thread are enough to issue copies */
        setmaxnreg_dec<40>();
        if (t == 0)
            for (int kt = 0; kt < tiles; kt++) {
                int s = kt % STAGES;
                if (kt >= STAGES) mbar_wait(&empty[s], (kt / STAGES - 1) & 1);
                load_stage<128, 256>(As + s * 128 * 64, Bs + s * 64 * 256, &ma, &mb, &full[s], bm, bn, kt * 64);
            }
    } else { /* a consumer: rows 64 (wg - 1) .. of the tile, 128 accumulators a thread */
        setmaxnreg_inc<232>();
        float d[128];
#pragma unroll
        for (int i = 0; i < 128; i++) d[i] = 0.0f;
        for (int kt = 0; kt < tiles; kt++) {
            consume<STAGES>(d, As, Bs, full, kt, wg - 1);
            if (kt >= 1) mbar_arrive(&empty[(kt + STAGES - 1) % STAGES]); /* k tile kt - 1's stage is free */
        }
        wgmma_wait<0>();
        pin(d);
        store_tile(d, C, N, bm + 64 * (wg - 1), bn, t);
    }
}

/* ---- stage 4: a persistent grid, and clusters of 2 with B multicast */

/* a consumer warpgroup's stage released: one arrival from the group (its MMAs, which read the
 * stage, are the group's, and done) on the stage's empty barrier in each block of the cluster */
template <int W> static __device__ __forceinline__ void release(uint64_t *bar, int t)
{
    if (t == 0) {
        if (W == 1) mbar_arrive(bar);
        else for (int q = 0; q < W; q++) mbar_arrive_in(bar, q);
    }
}
/* the i-th tile (of tiles_m x tiles_n) in groups of 8 tile rows, down each group's columns */
static __device__ __forceinline__ void grouped(int i, int tiles_m, int tiles_n, int *tm, int *tn)
{
    const int G = 8;
    int first = i / (G * tiles_n) * G, rows = min(G, tiles_m - first), in = i % (G * tiles_n);
    *tm = first + in % rows;
    *tn = in / rows;
}

template <bool CLUSTER, int STAGES>
static __global__ void __launch_bounds__(384, 1) persistent(int M, int N, int K, const __grid_constant__ CUtensorMap ma,
                                                             const __grid_constant__ CUtensorMap mb, float *C)
{
    extern __shared__ unsigned char raw[];
    __half *As = (__half *)(((uintptr_t)raw + 1023) & ~(uintptr_t)1023), *Bs = As + STAGES * 128 * 64;
    uint64_t *full = (uint64_t *)(Bs + STAGES * 64 * 256), *empty = full + STAGES;
    const int W = CLUSTER ? 2 : 1; /* blocks a unit of work: a cluster's tiles, one above the other */
    int wg = threadIdx.x / 128, t = threadIdx.x % 128, tiles = K / 64;
    uint32_t rank = CLUSTER ? cluster_rank() : 0;
    int units = M / 128 / W * (N / 256), unit0 = blockIdx.x / W, stride = gridDim.x / W;
    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; s++) mbar_init(&full[s], 1), mbar_init(&empty[s], 2 * W);
        fence_mbarrier_init();
    }
    if (CLUSTER) cluster_sync(); else __syncthreads();
    if (wg == 0) {
        setmaxnreg_dec<40>();
        if (t == 0) {
            int it = 0; /* the ring's position, carried from tile to tile */
            for (int u = unit0; u < units; u += stride) {
                int tm, tn;
                grouped(u, M / 128 / W, N / 256, &tm, &tn);
                int bm = (tm * W + rank) * 128, bn = tn * 256;
                for (int kt = 0; kt < tiles; kt++, it++) {
                    int s = it % STAGES;
                    if (it >= STAGES) mbar_wait(&empty[s], (it / STAGES - 1) & 1);
                    __half *as = As + s * 128 * 64, *bs = Bs + s * 64 * 256;
                    if (!CLUSTER) {
                        load_stage<128, 256>(as, bs, &ma, &mb, &full[s], bm, bn, kt * 64);
                    } else { /* our A; our half of B (two blocks of 64 columns) for both blocks */
                        mbar_expect(&full[s], (128 + 256) * 64 * 2);
                        tma_load(as, &ma, &full[s], kt * 64, bm);
                        for (int j = 2 * rank; j < 2 * rank + 2; j++)
                            tma_multicast(bs + j * 64 * 64, &mb, &full[s], bn + 64 * j, kt * 64, 0x3);
                    }
                }
            }
        }
    } else {
        setmaxnreg_inc<232>();
        int it = 0;
        for (int u = unit0; u < units; u += stride) {
            int tm, tn;
            grouped(u, M / 128 / W, N / 256, &tm, &tn);
            int bm = (tm * W + rank) * 128, bn = tn * 256;
            float d[128];
#pragma unroll
            for (int i = 0; i < 128; i++) d[i] = 0.0f;
            for (int kt = 0; kt < tiles; kt++, it++) {
                consume<STAGES>(d, As, Bs, full, it, wg - 1);
                if (kt >= 1) release<W>(&empty[(it + STAGES - 1) % STAGES], t); /* the previous step's stage */
            }
            wgmma_wait<0>();
            pin(d);
            release<W>(&empty[(it + STAGES - 1) % STAGES], t);
            store_tile(d, C, N, bm + 64 * (wg - 1), bn, t);
        }
    }
    /* no block leaves while its partner may still write into its shared memory or arrive on its barriers */
    if (CLUSTER) cluster_sync();
}

/* a row-major rows x cols half matrix, read in boxes of 64 columns (128 bytes) x box_rows rows,
 * swizzled 128 bytes */
static CUtensorMap tensor_map(const __half *p, int rows, int cols, int box_rows)
{
    CUtensorMap m;
    cuuint64_t dims[2] = {(cuuint64_t)cols, (cuuint64_t)rows}, strides[1] = {(cuuint64_t)cols * 2};
    cuuint32_t box[2] = {64, (cuuint32_t)box_rows}, elem[2] = {1, 1};
    CUresult r = cuTensorMapEncodeTiled(&m, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, (void *)p, dims, strides, box, elem,
                                        CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                        CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) memset(&m, 0, sizeof m); /* never, for the shapes of hopper_gemm.h: a zeroed map faults the launch */
    return m;
}


/* ---- the stages */

template <int BM> static void launch_wgmma(int M, int N, int K, const __half *A, const __half *B, float *C)
{
    plain<BM><<<dim3(N / 128, M / BM), 128>>>(M, N, K, A, B, C);
}

template <int BM, int STAGES> static void launch_tma(int M, int N, int K, const __half *A, const __half *B, float *C)
{
    CUtensorMap ma = tensor_map(A, M, K, BM), mb = tensor_map(B, K, N, 64);
    const int smem = tma_smem<BM, STAGES>();
    cudaFuncSetAttribute(tma<BM, STAGES>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
    tma<BM, STAGES><<<dim3(N / 128, M / BM), 128, smem>>>(M, N, K, ma, mb, C);
}

template <int STAGES> static void launch_specialised(int M, int N, int K, const __half *A, const __half *B, float *C)
{
    CUtensorMap ma = tensor_map(A, M, K, 128), mb = tensor_map(B, K, N, 64);
    const int smem = spec_smem<STAGES>();
    cudaFuncSetAttribute(specialised<STAGES>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
    specialised<STAGES><<<dim3(N / 256, M / 128), 384, smem>>>(M, N, K, ma, mb, C);
}

/* A block an SM (an even number of them: whole clusters), or one a tile where there are fewer. */
template <bool CLUSTER, int STAGES>
static void launch_persistent(int M, int N, int K, const __half *A, const __half *B, float *C)
{
    static int sms;
    if (sms == 0) {
        int dev = 0;
        cudaGetDevice(&dev);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
        if (sms < 2) sms = 2;
    }
    CUtensorMap ma = tensor_map(A, M, K, 128), mb = tensor_map(B, K, N, 64);
    const int smem = spec_smem<STAGES>(), w = CLUSTER ? 2 : 1;
    auto fn = persistent<CLUSTER, STAGES>;
    cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
    int units = M / 128 / w * (N / 256), blocks = sms / 2 * 2 < units * w ? sms / 2 * 2 : units * w;
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = w, attr[0].val.clusterDim.y = 1, attr[0].val.clusterDim.z = 1;
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(blocks), cfg.blockDim = dim3(384), cfg.dynamicSmemBytes = smem, cfg.attrs = attr, cfg.numAttrs = 1;
    cudaLaunchKernelEx(&cfg, fn, M, N, K, ma, mb, C);
}

/* Stage 1 in 128 x 128 tiles, two m64 MMAs a k step (three blocks an SM): 44% of cuBLAS at 8192
 * under the grader on an H200, against 30% for 64 x 128 (five an SM; docs/BENCHMARKS.md, the
 * thirty-sixth session). */
extern "C" void hopper_wgmma(int M, int N, int K, const lab_half *A, const lab_half *B, float *C)
{
    launch_wgmma<128>(M, N, K, A, B, C);
}

/* Stage 2: 128 x 128 tiles, a ring of 2 stages: 64 KiB a block, three blocks an SM, six stages in
 * flight on it (76% under the grader on an H200, against 67% for 3 stages, two blocks an SM, and
 * 69% for 4, one). */
extern "C" void hopper_tma(int M, int N, int K, const lab_half *A, const lab_half *B, float *C)
{
    launch_tma<128, 2>(M, N, K, A, B, C);
}

/* Stage 3: 128 x 256 tiles, 3 stages (94% at 8192, against 84-87% for 4). */
extern "C" void hopper_specialised(int M, int N, int K, const lab_half *A, const lab_half *B, float *C)
{
    launch_specialised<3>(M, N, K, A, B, C);
}

/* Stage 4: clusters of 2, 4 stages (99.9% at 8192, 96.8% at 4096). */
extern "C" void hopper_persistent(int M, int N, int K, const lab_half *A, const lab_half *B, float *C)
{
    launch_persistent<true, 4>(M, N, K, A, B, C);
}
