/* kernels.h - honest kernels of each stage's technique that lab 12's planted stage-skips run in a
 * later stage, written small (one 64 x 128 tile a warpgroup), so that each plant differs from
 * a correct submission only in the technique it leaves out. Built on ../hopper_ptx.h. */
#include "hopper_ptx.h"

#include <cstring>
#include <cuda.h>
#include <cuda_runtime.h>

/* 128-byte swizzle: chunk c of row r at chunk c ^ (r % 8); descriptors with 8-row groups 1024 bytes
 * apart; B's tile in blocks of 64 columns (8 KiB each). */
static __device__ __forceinline__ uint64_t plant_desc(const void *p, uint32_t lead)
{
    uint64_t a = (uint64_t)__cvta_generic_to_shared(p);
    return ((a & 0x3FFFF) >> 4) | ((uint64_t)(lead >> 4) << 16) | ((uint64_t)(1024 >> 4) << 32) | (1ull << 62);
}

/* four k steps of 16 on a 64 x 64 A tile and a 64 x 128 B tile */
static __device__ __forceinline__ void plant_mma(float (&d)[64], const __half *As, const __half *Bs)
{
    wgmma_fence();
#pragma unroll
    for (int kk = 0; kk < 4; kk++) wgmma_m64n128k16(d, plant_desc(As + kk * 16, 16), plant_desc(Bs + kk * 16 * 64, 8192));
    wgmma_commit();
    wgmma_wait<0>();
    pin(d);
}

static __device__ __forceinline__ void plant_store(float (&d)[64], float *C, int N, int bm, int bn, int t)
{
    int w = t / 32, lane = t % 32;
#pragma unroll
    for (int i = 0; i < 64; i += 2)
        *(float2 *)(C + (size_t)(bm + 16 * w + lane / 4 + 8 * ((i / 2) % 2)) * N + bn + 8 * (i / 4) + 2 * (lane % 4)) =
            make_float2(d[i], d[i + 1]);
}

/* A k tile's 64 x 64 of A and 64 x 128 of B copied by 128 threads, 16 bytes each, swizzled, then
 * made visible to the tensor cores and to the block. */
static __device__ __forceinline__ void plant_copy(__half *As, __half *Bs, const __half *A, const __half *B, int N, int K,
                                                  int bm, int bn, int k0, int t)
{
    for (int i = 0; i < 4; i++) {
        int r = t / 8 + 16 * i, c = t % 8;
        *(uint4 *)((char *)As + r * 128 + ((c ^ (r & 7)) << 4)) = *(const uint4 *)(A + (size_t)(bm + r) * K + k0 + 8 * c);
    }
    for (int i = 0; i < 8; i++) {
        int e = t + 128 * i, r = e / 16, c = e % 16;
        *(uint4 *)((char *)Bs + c / 8 * 8192 + r * 128 + (((c % 8) ^ (r & 7)) << 4)) =
            *(const uint4 *)(B + (size_t)(k0 + r) * N + bn + 8 * c);
    }
    fence_proxy_async();
    __syncthreads();
}

/* Stage 1's technique: plain 16-byte copies into the swizzled tiles, then the MMAs. */
static __global__ void __launch_bounds__(128) plant_plain(int M, int N, int K, const __half *A, const __half *B, float *C)
{
    __shared__ __align__(1024) __half As[64 * 64], Bs[64 * 128];
    float d[64] = {};
    int bm = blockIdx.y * 64, bn = blockIdx.x * 128, t = threadIdx.x;
    for (int k0 = 0; k0 < K; k0 += 64) {
        plant_copy(As, Bs, A, B, N, K, bm, bn, k0, t);
        plant_mma(d, As, Bs);
        __syncthreads();
    }
    plant_store(d, C, N, bm, bn, t);
}

static void plain_mm(int M, int N, int K, const __half *A, const __half *B, float *C)
{
    plant_plain<<<dim3(N / 128, M / 64), 128>>>(M, N, K, A, B, C);
}

static CUtensorMap plant_map(const __half *p, int rows, int cols, int box_rows)
{
    CUtensorMap m;
    cuuint64_t dims[2] = {(cuuint64_t)cols, (cuuint64_t)rows}, strides[1] = {(cuuint64_t)cols * 2};
    cuuint32_t box[2] = {64, (cuuint32_t)box_rows}, elem[2] = {1, 1};
    if (cuTensorMapEncodeTiled(&m, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, (void *)p, dims, strides, box, elem,
                               CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                               CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS)
        memset(&m, 0, sizeof m);
    return m;
}

/* a k tile's boxes (A 64 x 64, B 64 x 128 in two blocks) into one stage, completing on bar; the
 * B_BOXES of them loaded (2: all; planted/lost_box.cu's 1 leaves the barrier waiting) */
template <int B_BOXES = 2>
static __device__ __forceinline__ void plant_load(__half *As, __half *Bs, const CUtensorMap *ma, const CUtensorMap *mb,
                                                  uint64_t *bar, int bm, int bn, int k0)
{
    mbar_expect(bar, (64 * 64 + 64 * 128) * 2);
    tma_load(As, ma, bar, k0, bm);
    for (int j = 0; j < B_BOXES; j++) tma_load(Bs + j * 64 * 64, mb, bar, bn + 64 * j, k0);
}

/* Stage 2's technique: the TMA copies a k tile in, the block waits on its mbarrier, then the MMAs
 * (one stage: no ring). */
template <int B_BOXES = 2>
static __global__ void __launch_bounds__(128) plant_tma(int M, int N, int K, const __grid_constant__ CUtensorMap ma,
                                                        const __grid_constant__ CUtensorMap mb, float *C)
{
    __shared__ __align__(1024) __half As[64 * 64], Bs[64 * 128];
    __shared__ uint64_t bar;
    float d[64] = {};
    int bm = blockIdx.y * 64, bn = blockIdx.x * 128, t = threadIdx.x;
    if (t == 0) mbar_init(&bar, 1), fence_mbarrier_init();
    __syncthreads();
    for (int k0 = 0, n = 0; k0 < K; k0 += 64, n++) {
        if (t == 0) plant_load<B_BOXES>(As, Bs, &ma, &mb, &bar, bm, bn, k0);
        mbar_wait(&bar, n & 1);
        plant_mma(d, As, Bs);
        __syncthreads();
    }
    plant_store(d, C, N, bm, bn, t);
}

/* Stage 3's technique: a producer warpgroup (its registers given up) and one consumer, two stages
 * with full and empty barriers; no cluster, no multicast. */
static __global__ void __launch_bounds__(256, 1) plant_specialised(int M, int N, int K, const __grid_constant__ CUtensorMap ma,
                                                                   const __grid_constant__ CUtensorMap mb, float *C)
{
    __shared__ __align__(1024) __half As[2][64 * 64], Bs[2][64 * 128];
    __shared__ uint64_t full[2], empty[2];
    int bm = blockIdx.y * 64, bn = blockIdx.x * 128, t = threadIdx.x % 128, tiles = K / 64;
    if (threadIdx.x == 0) {
        for (int s = 0; s < 2; s++) mbar_init(&full[s], 1), mbar_init(&empty[s], 1);
        fence_mbarrier_init();
    }
    __syncthreads();
    if (threadIdx.x < 128) {
        setmaxnreg_dec<40>();
        for (int kt = 0; t == 0 && kt < tiles; kt++) {
            if (kt >= 2) mbar_wait(&empty[kt % 2], (kt / 2 - 1) & 1);
            plant_load(As[kt % 2], Bs[kt % 2], &ma, &mb, &full[kt % 2], bm, bn, kt * 64);
        }
    } else {
        setmaxnreg_inc<232>();
        float d[64] = {};
        for (int kt = 0; kt < tiles; kt++) {
            mbar_wait(&full[kt % 2], (kt / 2) & 1);
            plant_mma(d, As[kt % 2], Bs[kt % 2]);
            if (t == 0) mbar_arrive(&empty[kt % 2]);
        }
        plant_store(d, C, N, bm, bn, t);
    }
}

template <int B_BOXES = 2>
static void tma_mm(int M, int N, int K, const __half *A, const __half *B, float *C, bool specialised)
{
    CUtensorMap ma = plant_map(A, M, K, 64), mb = plant_map(B, K, N, 64);
    if (specialised)
        plant_specialised<<<dim3(N / 128, M / 64), 256>>>(M, N, K, ma, mb, C);
    else
        plant_tma<B_BOXES><<<dim3(N / 128, M / 64), 128>>>(M, N, K, ma, mb, C);
}
