/* expect: wrong
 * threats: 23 (rows of ../shared/GRADER_THREATS.md)
 * A transpose written for square matrices: out's rows are taken to be as long as the square's
 * side, here the smaller of m and n (so nothing lands past the end), where they are m long. Right
 * whenever m == n (1 x 1, 32 x 32) and for a single row or column; wrong at 31 x 33, 1000 x 1003
 * and the timed 8192 x 12288. */
#include "transpose.h"

static __global__ void square(int m, int n, const float *in, float *out)
{
    int j = blockIdx.x * 32 + threadIdx.x;
    for (int i = blockIdx.y * 32 + threadIdx.y; i < blockIdx.y * 32 + 32; i += 8)
        if (i < m && j < n) out[(size_t)j * (m < n ? m : n) + i] = in[(size_t)i * n + j];
}

static void tr(int m, int n, const float *in, float *out)
{
    square<<<dim3((n + 31) / 32, (m + 31) / 32), dim3(32, 8)>>>(m, n, in, out);
}

#include "planted/entry_points.h"
