/* textbook: vectorized
 * A float4 version of the padded-tile transpose, the way it is commonly built on the
 * conflict-free design of Mark Harris's "An Efficient Matrix Transpose in CUDA C/C++" (NVIDIA
 * Developer Blog, 2013), written in this workbook's own code. The tile stays 32 x 32 floats in a
 * shared array padded to 32 x 33, walked four rows at a time (dy = 0, 8, 16, 24) as in the blog,
 * but each thread now moves four neighbouring floats as one 16-byte vector, so a block is only
 * 32 / 4 x 8 = 8 x 8 threads: on the way in, one float4 load from an input row is spread over
 * four consecutive cells of a tile row; on the way out, four cells taken down a tile column are
 * packed into one float4 and stored to an output row. The tile itself is accessed one float at a
 * time (a 33-float row is not 16-byte aligned). This is not the honest variant's shape
 * (grading/08-transpose/honest/textbook.cu: 8 x 32 threads, one float4 each way). Lab
 * adaptations: an m x n input rather than the blog's square multiples of 32 (input rows n long,
 * output rows m long, the grid rounded up, offsets in size_t); vectors are used only when the
 * host has found m and n divisible by 4 and both pointers 16-byte aligned, and only in tiles lying
 * wholly inside the matrix (a test with one answer for the whole block); every other tile is
 * moved float by float, four per thread, each bounds-tested. Graded on `vectorized` only: the
 * other stages are stubs. */
#include "transpose.h"
#include "textbook/empty_stage.h"

#include <cuda_runtime.h>
#include <stdint.h>

enum {
    EDGE = 32,     /* a tile is EDGE x EDGE floats */
    PASS_ROWS = 8, /* rows of threads in a block, each pass covering PASS_ROWS tile rows */
    VEC = 4        /* floats a thread moves per pass: one float4 */
};

/* out (n x m) = transpose of in (m x n); blocks of EDGE / VEC x PASS_ROWS threads, one tile each.
 * vec_ok: m and n are multiples of VEC and both pointers are 16-byte aligned. */
static __global__ void tile_transpose_float4(float *out, const float *in, int m, int n, bool vec_ok)
{
    __shared__ float buf[EDGE][EDGE + 1];

    const int q = threadIdx.x, ly = threadIdx.y; /* q: which group of VEC columns */
    const int c4 = VEC * q;                      /* first tile column of that group */
    /* same answer for every thread of the block, so the branches below never split a warp */
    const bool full = vec_ok && (blockIdx.y + 1) * EDGE <= m && (blockIdx.x + 1) * EDGE <= n;

    /* gather from tile (blockIdx.y, blockIdx.x) of the input */
    const int in_c = blockIdx.x * EDGE + c4, in_r = blockIdx.y * EDGE + ly;
    for (int dy = 0; dy < EDGE; dy += PASS_ROWS) {
        const int r = in_r + dy;
        float *cells = &buf[ly + dy][c4];
        if (full) {
            const float4 g = *reinterpret_cast<const float4 *>(in + (size_t)r * n + in_c);
            cells[0] = g.x;
            cells[1] = g.y;
            cells[2] = g.z;
            cells[3] = g.w;
        } else {
            for (int e = 0; e < VEC; e++)
                if (r < m && in_c + e < n) cells[e] = in[(size_t)r * n + in_c + e];
        }
    }

    __syncthreads();

    /* scatter to tile (blockIdx.x, blockIdx.y) of the output: output row out_r + dy, columns
     * out_c .. out_c + 3, come from tile column ly + dy, tile rows c4 .. c4 + 3 */
    const int out_c = blockIdx.y * EDGE + c4, out_r = blockIdx.x * EDGE + ly;
    for (int dy = 0; dy < EDGE; dy += PASS_ROWS) {
        const int r = out_r + dy, tc = ly + dy;
        if (full) {
            const float4 g = make_float4(buf[c4][tc], buf[c4 + 1][tc], buf[c4 + 2][tc], buf[c4 + 3][tc]);
            *reinterpret_cast<float4 *>(out + (size_t)r * m + out_c) = g;
        } else {
            for (int e = 0; e < VEC; e++)
                if (r < n && out_c + e < m) out[(size_t)r * m + out_c + e] = buf[c4 + e][tc];
        }
    }
}

EMPTY_STAGE(naive)
EMPTY_STAGE(tiled)
EMPTY_STAGE(padded)
EMPTY_STAGE(swizzled)

extern "C" void transpose_vectorized(int m, int n, const float *in, float *out)
{
    const bool sixteen = (uintptr_t)in % 16 == 0 && (uintptr_t)out % 16 == 0;
    const bool vec_ok = sixteen && m % VEC == 0 && n % VEC == 0;
    const dim3 tiles((n + EDGE - 1) / EDGE, (m + EDGE - 1) / EDGE);
    const dim3 threads(EDGE / VEC, PASS_ROWS);
    tile_transpose_float4<<<tiles, threads>>>(out, in, m, n, vec_ok);
}
