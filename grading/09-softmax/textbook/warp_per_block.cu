/* textbook: warp
 * A warp per row as the softmax worklogs write it (textbook/warp_rows.h: shuffles, three reads,
 * expf and a division), a block of 32 threads for each row. Graded on `warp` only (the other
 * stages launch nothing): the study of what a pass certifies grades it, and a technique-correct
 * textbook kernel must pass. */
#include "softmax.h"
#include "textbook/warp_rows.h"

extern "C" void softmax_warp(int m, int n, const float *in, float *out)
{
    if (m > 0) warp_rows<<<m, 32>>>(m, n, in, out);
}
