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

/* Each thread computes C = 4 adjacent outputs of a row, and does so for RT = 4 adjacent rows: a
 * 4 x 4 block of outputs in 16 registers. A block of 32 x 8 threads covers 32 rows x 128 columns.
 * For each of the RT + K - 1 tile rows its outputs need, a thread reads the C + K - 1 pixels of its
 * window into registers once, with 16-byte loads from shared memory (a warp's 32 loads are 512
 * consecutive bytes: no bank conflict), and uses each pixel in up to C x min(RT, K) FFMAs: for
 * output row rr the tile row y meets filter row y - rr. Per output at K = 7: 49 FFMAs and about 8
 * pixels read from shared memory (stage 3: 49 of each). */
constexpr int C = 4, RT = 4, C_COLS = 32 * C, C_ROWS = 8 * RT;

template <int K>
__global__ void coarsened_kernel(int m, int n, const float *__restrict__ in, float *__restrict__ out)
{
    /* W: the floats of a thread's window, C + K - 1, rounded up to whole float4s. SW: the tile's
     * row length, where the last thread's window ends (at least C_COLS + K - 1); a multiple of 4,
     * so that every window starts 16-byte aligned. */
    constexpr int R = K / 2, IH = C_ROWS + K - 1, W = 4 * ((C + K - 1 + 3) / 4), SW = C * 31 + W;
    __shared__ float4 tile4[IH * SW / 4]; /* float4: 16-byte aligned */
    float *tile = reinterpret_cast<float *>(tile4);
    int i0 = blockIdx.y * C_ROWS, j0 = blockIdx.x * C_COLS, tx = threadIdx.x, ty = threadIdx.y;
    /* The load, as in stage 3: a warp takes 32 consecutive pixels of a tile row at a time, every
     * column offset a constant from the row's start; zeros outside the image. */
    for (int y = ty; y < IH; y += 8) {
        int row = i0 + y - R;
        bool row_in = row >= 0 && row < m;
        const float *src = in + (size_t)(row_in ? row : 0) * n;
#pragma unroll
        for (int x0 = 0; x0 < SW; x0 += 32) { /* a fixed count: unrolled, offsets constant */
            int x = x0 + tx, col = j0 + x - R;
            if (x < SW) tile[y * SW + x] = row_in && col >= 0 && col < n ? src[col] : 0.0f;
        }
    }
    __syncthreads();
    float acc[RT][C] = {};
#pragma unroll
    for (int y = 0; y < RT + K - 1; y++) { /* the tile rows this thread's outputs need */
        float v[W];
        const float4 *p = reinterpret_cast<const float4 *>(tile + (ty * RT + y) * SW + C * tx);
#pragma unroll
        for (int q = 0; q < W / 4; q++) {
            float4 t = p[q];
            v[4 * q] = t.x, v[4 * q + 1] = t.y, v[4 * q + 2] = t.z, v[4 * q + 3] = t.w;
        }
#pragma unroll
        for (int rr = 0; rr < RT; rr++) {
            const int a = y - rr; /* the filter row that tile row y meets at output row rr: a constant */
            if (a < 0 || a >= K) continue;
#pragma unroll
            for (int b = 0; b < K; b++)
#pragma unroll
                for (int c = 0; c < C; c++) acc[rr][c] = fmaf(c_filter[a * K + b], v[c + b], acc[rr][c]);
        }
    }
    /* Four adjacent outputs: one 16-byte store where the row holds them all and they are aligned. */
    bool vec = n % 4 == 0 && reinterpret_cast<uintptr_t>(out) % 16 == 0;
#pragma unroll
    for (int rr = 0; rr < RT; rr++) {
        int i = i0 + ty * RT + rr, j = j0 + C * tx;
        if (i >= m) break;
        float *o = out + (size_t)i * n + j;
        if (vec && j + 3 < n) {
            *reinterpret_cast<float4 *>(o) = make_float4(acc[rr][0], acc[rr][1], acc[rr][2], acc[rr][3]);
        } else {
#pragma unroll
            for (int c = 0; c < C; c++)
                if (j + c < n) o[c] = acc[rr][c];
        }
    }
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
    coarsened_kernel<K><<<grid_for(m, n, C_ROWS, C_COLS), BLOCK>>>(m, n, in, out);
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
