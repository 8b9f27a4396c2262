/* textbook: warp
 * warp_per_block.cu's kernel (textbook/warp_rows.h) launched in blocks of 256 threads, 8 rows a
 * block, instead of a block of 32 a row: whether the launch shape is what holds that file back
 * (on an H100 it is not: 40.6% against 39.3%). Graded on `warp` only. */
#include "softmax.h"
#include "textbook/warp_rows.h"

extern "C" void softmax_warp(int m, int n, const float *in, float *out)
{
    if (m > 0) warp_rows<<<(unsigned)(((size_t)m * 32 + 255) / 256), 256>>>(m, n, in, out);
}
