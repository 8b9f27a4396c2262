/* expect: out-of-bounds
 * threats: 16 (rows of ../shared/GRADER_THREATS.md)
 * Bounds-checks the rows it reads but not the columns it writes: every thread of an edge tile
 * writes, so the last tile of out spills past its end whenever m is not a multiple of 32. The
 * device guard zones the grader puts around every buffer show it. */
#include "transpose.h"

static __global__ void sloppy(int m, int n, const float *in, float *out)
{
    int j = blockIdx.x * 32 + threadIdx.x;
    for (int i = blockIdx.y * 32 + threadIdx.y; i < blockIdx.y * 32 + 32; i += 8) {
        float v = i < m && j < n ? in[(size_t)i * n + j] : 0.0f;
        if (j < n) out[(size_t)j * m + i] = v; /* i may be m or more: past the row, and past the end */
    }
}

static void tr(int m, int n, const float *in, float *out)
{
    sloppy<<<dim3((n + 31) / 32, (m + 31) / 32), dim3(32, 8)>>>(m, n, in, out);
}

#include "planted/entry_points.h"
