/* conv.cu - lab 11, the reference: 2D convolution with zero padding, four ways. See
 * handouts/11-convolution.md.
 *
 * in and out are m x n, row-major floats on the device; filter is K x K, row-major, on the device,
 * K odd in 3..15, r = K / 2. out[i][j] = sum_{a,b} filter[a][b] * in[i + a - r][j + b - r], pixels
 * outside the image 0. Stages 2 to 4 are templates on K, one instance per odd K: with K known when
 * compiling, every loop over the filter unrolls and each tap's index is a constant, so the FFMA
 * reads the tap straight from the constant bank (an operand c[0x3][offset], no load). */
#include "conv.h"

#include <cstdint>
#include <cuda_runtime.h>

namespace {

/* The filter of stages 2 to 4, in constant memory: read through the constant cache, which serves
 * all 32 threads of a warp in one go when they read the same address, as they do here. */
__constant__ float c_filter[CONV_MAX_K * CONV_MAX_K];

/* The filter is on the device already: a device-to-device copy into the symbol, queued on the
 * default stream before the kernel that reads it (no host synchronisation for this kind). */
void filter_to_constant(int K, const float *filter)
{
    cudaMemcpyToSymbol(c_filter, filter, sizeof(float) * K * K, 0, cudaMemcpyDeviceToDevice);
}

/* Is K one this file has an instance for (odd, 3..15)? Its index in the tables below. */
bool valid_k(int K) { return K >= 3 && K <= CONV_MAX_K && K % 2 == 1; }
int k_index(int K) { return (K - 3) / 2; }

/* ---------------------------------------------------------------- stage 1: naive */

/* Thread (x, y) of the grid owns out[y][x]; every tap is tested against the image's edges, and
 * the filter is read from global memory (through L1: every thread of a warp wants the same tap). */
__global__ void naive_kernel(int m, int n, int K, const float *__restrict__ in, const float *__restrict__ filter,
                             float *__restrict__ out)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y, r = K / 2;
    if (i >= m || j >= n) return;
    float acc = 0.0f;
    for (int a = 0; a < K; a++) {
        int row = i + a - r;
        if (row < 0 || row >= m) continue; /* a row of padding: its taps add 0 */
        for (int b = 0; b < K; b++) {
            int col = j + b - r;
            if (col >= 0 && col < n) acc = fmaf(filter[a * K + b], in[(size_t)row * n + col], acc);
        }
    }
    out[(size_t)i * n + j] = acc;
}

/* 32 x 8 threads: a warp spans 32 consecutive outputs of a row, so its loads of a row of the image
 * are coalesced. */
const dim3 BLOCK(32, 8);
dim3 grid_for(int m, int n, int tile_rows, int tile_cols)
{
    return dim3((unsigned)((n + tile_cols - 1) / tile_cols), (unsigned)((m + tile_rows - 1) / tile_rows));
}

/* ---------------------------------------------------------------- stage 2: constant */

/* Stage 1 with the filter in constant memory and the loops unrolled: the row test is made once per
 * filter row, the column tests once per column of the window (the compiler keeps K predicates). */
template <int K>
__global__ void constant_kernel(int m, int n, const float *__restrict__ in, float *__restrict__ out)
{
    constexpr int R = K / 2;
    int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= m || j >= n) return;
    float acc = 0.0f;
#pragma unroll
    for (int a = 0; a < K; a++) {
        int row = i + a - R;
        if (row < 0 || row >= m) continue;
        const float *x = in + (size_t)row * n;
#pragma unroll
        for (int b = 0; b < K; b++) {
            int col = j + b - R;
            if (col >= 0 && col < n) acc = fmaf(c_filter[a * K + b], x[col], acc);
        }
    }
    out[(size_t)i * n + j] = acc;
}

/* ---------------------------------------------------------------- stage 3: tiled */

/* A block of 32 x 8 threads computes a tile of 8 x 32 outputs, a thread each, from the tile of
 * (8 + K - 1) x (32 + K - 1) pixels around it, staged in shared memory with zeros for the pixels
 * outside the image: the padding is then in the data, and the inner loops test nothing. */
constexpr int T_ROWS = 8, T_COLS = 32;

template <int K>
__global__ void tiled_kernel(int m, int n, const float *__restrict__ in, float *__restrict__ out)
{
    constexpr int R = K / 2, IH = T_ROWS + K - 1, IW = T_COLS + K - 1;
    __shared__ float tile[IH][IW];
    int i0 = blockIdx.y * T_ROWS, j0 = blockIdx.x * T_COLS, tx = threadIdx.x, ty = threadIdx.y;
    /* Each warp loads 32 consecutive pixels of a tile row at a time (coalesced); the halo columns
     * beyond 32 are taken by the first K - 1 threads. */
    for (int y = ty; y < IH; y += T_ROWS) {
        int row = i0 + y - R;
        bool row_in = row >= 0 && row < m;
        for (int x = tx; x < IW; x += T_COLS) {
            int col = j0 + x - R;
            tile[y][x] = row_in && col >= 0 && col < n ? in[(size_t)row * n + col] : 0.0f;
        }
    }
    __syncthreads(); /* every pixel of the tile written before any thread reads its window */
    int i = i0 + ty, j = j0 + tx;
    if (i >= m || j >= n) return; /* after the barrier: every thread has helped load */
    float acc = 0.0f;
#pragma unroll
    for (int a = 0; a < K; a++)
#pragma unroll
        for (int b = 0; b < K; b++) acc = fmaf(c_filter[a * K + b], tile[ty + a][tx + b], acc);
    out[(size_t)i * n + j] = acc;
}

/* ---------------------------------------------------------------- stage 4: coarsened */

/* Each thread computes C adjacent outputs of a row, and does so for RT adjacent rows: a C x RT
 * block of outputs in registers (4 x 4 up to K = 11; 4 x 2 above, where two tiles of 4 x 4 would
 * not fit in 48 KB of shared memory). A block of 32 x 8 threads covers 8 RT rows x 32 C columns.
 * For each of the RT + K - 1 tile rows its outputs need, a thread reads its window of pixels into
 * registers once, with 16-byte loads from shared memory (a warp's 32 loads are consecutive: no bank
 * conflict), and uses each pixel in up to C x min(RT, K) FFMAs: for output row rr the tile row y
 * meets filter row y - rr. Per output at K = 7: 49 FFMAs and about 8 pixels read from shared memory
 * (stage 3: 49 of each).
 *
 * Loading overlaps computing. A block stays on the GPU and takes tile after tile (as many blocks as
 * fit at once, each stepping by the grid's size); while it computes one tile from shared memory,
 * the next one is on its way into a second buffer, by cp.async: copies from global to shared memory
 * that pass no register and that the thread does not wait for until cp.async.wait_group. A copy
 * whose source size is given as 0 writes zeros, so the padding outside the image costs no branch
 * around a load. The tile's first column is the output tile's first column less P = R rounded up
 * to a multiple of 4, so that when the rows are 16-byte aligned (n a multiple of 4) every copy
 * moves 4 pixels and lies wholly inside or wholly outside the image; other images take 4-byte
 * copies. Below sm_80 (no cp.async) the copies are plain loads and stores. C = 4 and plain stores are
 * the reference; the kernel study (scripts/studies/conv.cu) times other C and streaming stores (CS). */

/* A copy of BYTES (4 or 16) from global to shared memory, zeros instead where `inside` is false. */
template <int BYTES> __device__ __forceinline__ void copy_async(float *dst, const float *src, bool inside)
{
    static_assert(BYTES == 4 || BYTES == 16, "cp.async moves 4, 8 or 16 bytes; 8 is not used here");
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    unsigned s = (unsigned)__cvta_generic_to_shared(dst);
    if (BYTES == 16) /* .cg: cached in L2 only, the one size it takes */
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(s), "l"(src), "r"(inside ? 16 : 0));
    else
        asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(s), "l"(src), "r"(inside ? 4 : 0));
#else
    for (int k = 0; k < BYTES / 4; k++) dst[k] = inside ? src[k] : 0.0f;
#endif
}

/* The copies issued since the last commit become one group; wait until at most N groups are
 * still in flight (this thread's: a barrier after it makes every thread's visible). */
__device__ __forceinline__ void copies_commit()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;\n" ::);
#endif
}
template <int N> __device__ __forceinline__ void copies_wait()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
#endif
}

template <int K, int RT, int C> struct coarse_tile {
    static constexpr int R = K / 2, P = (R + 3) / 4 * 4, OFF = P - R;
    static constexpr int ROWS = 8 * RT, COLS = 32 * C, IH = ROWS + K - 1, SW = COLS + 2 * P;
    /* W: the floats of a thread's window (from OFF, C + K - 1 of them), rounded up to whole float4s */
    static constexpr int W = 4 * ((OFF + C + K - 1 + 3) / 4);
    static_assert(C % 4 == 0 && 31 * C + W <= SW, "the last thread's window lies inside the tile row");
};

/* Tile t's pixels, rows i0 - R .. and columns j0 - P .., into buf: queued copies, none waited for. */
template <int K, int RT, int C>
__device__ void load_tile(int m, int n, const float *__restrict__ in, bool by4, int i0, int j0, float *buf)
{
    using T = coarse_tile<K, RT, C>;
    int tid = threadIdx.y * 32 + threadIdx.x;
    if (by4) {
        for (int e = tid; e < T::IH * T::SW / 4; e += 256) {
            int y = e / (T::SW / 4), x = 4 * (e % (T::SW / 4)), row = i0 + y - T::R, col = j0 + x - T::P;
            bool inside = row >= 0 && row < m && col >= 0 && col < n;
            copy_async<16>(buf + y * T::SW + x, inside ? in + (size_t)row * n + col : in, inside);
        }
    } else {
        for (int e = tid; e < T::IH * T::SW; e += 256) {
            int y = e / T::SW, x = e % T::SW, row = i0 + y - T::R, col = j0 + x - T::P;
            bool inside = row >= 0 && row < m && col >= 0 && col < n;
            copy_async<4>(buf + y * T::SW + x, inside ? in + (size_t)row * n + col : in, inside);
        }
    }
}

template <int K, int RT, int C = 4, bool CS = false>
__global__ void __launch_bounds__(256) coarsened_kernel(int m, int n, const float *__restrict__ in, float *__restrict__ out)
{
    using T = coarse_tile<K, RT, C>;
    __shared__ float4 tiles4[2][T::IH * T::SW / 4]; /* float4: 16-byte aligned */
    int tx = threadIdx.x, ty = threadIdx.y;
    int tiles_x = (n + T::COLS - 1) / T::COLS, tiles = tiles_x * ((m + T::ROWS - 1) / T::ROWS);
    bool by4 = n % 4 == 0 && reinterpret_cast<uintptr_t>(in) % 16 == 0;
    bool vec = n % 4 == 0 && reinterpret_cast<uintptr_t>(out) % 16 == 0;
    int t = blockIdx.x;
    if (t < tiles)
        load_tile<K, RT, C>(m, n, in, by4, t / tiles_x * T::ROWS, t % tiles_x * T::COLS, reinterpret_cast<float *>(tiles4[0]));
    copies_commit();
    for (int k = 0; t < tiles; t += gridDim.x, k ^= 1) {
        int next = t + gridDim.x; /* on its way while this tile is computed */
        if (next < tiles)
            load_tile<K, RT, C>(m, n, in, by4, next / tiles_x * T::ROWS, next % tiles_x * T::COLS,
                             reinterpret_cast<float *>(tiles4[k ^ 1]));
        copies_commit();
        copies_wait<1>(); /* all but the group just committed: this tile's copies have landed */
        __syncthreads();  /* ... every thread's */
        const float *tile = reinterpret_cast<const float *>(tiles4[k]);
        float acc[RT][C] = {};
#pragma unroll
        for (int y = 0; y < RT + K - 1; y++) { /* the tile rows this thread's outputs need */
            float v[T::W];
            const float4 *p = reinterpret_cast<const float4 *>(tile + (ty * RT + y) * T::SW + C * tx);
#pragma unroll
            for (int q = 0; q < T::W / 4; q++) {
                float4 f = p[q];
                v[4 * q] = f.x, v[4 * q + 1] = f.y, v[4 * q + 2] = f.z, v[4 * q + 3] = f.w;
            }
#pragma unroll
            for (int rr = 0; rr < RT; rr++) {
                const int a = y - rr; /* the filter row that tile row y meets at output row rr: a constant */
                if (a < 0 || a >= K) continue;
#pragma unroll
                for (int b = 0; b < K; b++)
#pragma unroll
                    for (int c = 0; c < C; c++)
                        acc[rr][c] = fmaf(c_filter[a * K + b], v[T::OFF + c + b], acc[rr][c]);
            }
        }
        /* C adjacent outputs: 16-byte stores where the row holds them all and they are aligned. */
        int i0 = t / tiles_x * T::ROWS, j = t % tiles_x * T::COLS + C * tx;
#pragma unroll
        for (int rr = 0; rr < RT; rr++) {
            int i = i0 + ty * RT + rr;
            if (i >= m) break;
            float *o = out + (size_t)i * n + j;
#pragma unroll
            for (int c = 0; c < C; c += 4) {
                if (vec && j + c + 3 < n) {
                    float4 v = make_float4(acc[rr][c], acc[rr][c + 1], acc[rr][c + 2], acc[rr][c + 3]);
                    if (CS) __stcs(reinterpret_cast<float4 *>(o + c), v); /* evict-first */
                    else *reinterpret_cast<float4 *>(o + c) = v;
                } else {
#pragma unroll
                    for (int d = 0; d < 4; d++)
                        if (j + c + d < n) o[c + d] = acc[rr][c + d];
                }
            }
        }
        __syncthreads(); /* every thread done with this buffer before the next iteration refills it */
    }
}

/* As many blocks as the GPU holds at once (found once per instance), at most one a tile. */
template <int K, int RT, int C = 4, bool CS = false> void coarsened_launch_rt(int m, int n, const float *in, float *out)
{
    using T = coarse_tile<K, RT, C>;
    static int resident;
    if (!resident) {
        int dev = 0, sms = 0, per_sm = 0;
        cudaGetDevice(&dev);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, coarsened_kernel<K, RT, C, CS>, 256, 0);
        resident = sms * per_sm > 0 ? sms * per_sm : 1;
    }
    long tiles = (long)((n + T::COLS - 1) / T::COLS) * ((m + T::ROWS - 1) / T::ROWS);
    coarsened_kernel<K, RT, C, CS><<<(unsigned)(tiles < resident ? tiles : resident), BLOCK>>>(m, n, in, out);
}

/* ---------------------------------------------------------------- launchers, one per K */

using launcher = void (*)(int m, int n, const float *in, float *out);

template <int K> void constant_launch(int m, int n, const float *in, float *out)
{
    constant_kernel<K><<<grid_for(m, n, 8, 32), BLOCK>>>(m, n, in, out);
}
template <int K> void tiled_launch(int m, int n, const float *in, float *out)
{
    tiled_kernel<K><<<grid_for(m, n, T_ROWS, T_COLS), BLOCK>>>(m, n, in, out);
}
template <int K> void coarsened_launch(int m, int n, const float *in, float *out)
{
    coarsened_launch_rt<K, K <= 11 ? 4 : 2>(m, n, in, out);
}

/* Indexed by k_index(K): K = 3, 5, ..., 15. */
const launcher constant_by_k[] = {constant_launch<3>, constant_launch<5>,  constant_launch<7>, constant_launch<9>,
                                  constant_launch<11>, constant_launch<13>, constant_launch<15>};
const launcher tiled_by_k[] = {tiled_launch<3>,  tiled_launch<5>,  tiled_launch<7>, tiled_launch<9>,
                               tiled_launch<11>, tiled_launch<13>, tiled_launch<15>};
const launcher coarsened_by_k[] = {coarsened_launch<3>,  coarsened_launch<5>,  coarsened_launch<7>,
                                   coarsened_launch<9>,  coarsened_launch<11>, coarsened_launch<13>,
                                   coarsened_launch<15>};

void with_constant_filter(const launcher *table, int m, int n, int K, const float *in, const float *filter,
                          float *out)
{
    if (!valid_k(K)) return; /* conv.h promises an odd K in 3..15 */
    filter_to_constant(K, filter);
    table[k_index(K)](m, n, in, out);
}

} // namespace

extern "C" void conv_naive(int m, int n, int K, const float *in, const float *filter, float *out)
{
    naive_kernel<<<grid_for(m, n, 8, 32), BLOCK>>>(m, n, K, in, filter, out);
}

extern "C" void conv_constant(int m, int n, int K, const float *in, const float *filter, float *out)
{
    with_constant_filter(constant_by_k, m, n, K, in, filter, out);
}

extern "C" void conv_tiled(int m, int n, int K, const float *in, const float *filter, float *out)
{
    with_constant_filter(tiled_by_k, m, n, K, in, filter, out);
}

extern "C" void conv_coarsened(int m, int n, int K, const float *in, const float *filter, float *out)
{
    with_constant_filter(coarsened_by_k, m, n, K, in, filter, out);
}
