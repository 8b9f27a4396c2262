/* expect: too-slow in mv_block
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * A stage skipped: `mv_block` runs stage 8's code, one warp per row (four loads in flight a lane,
 * then a shuffle sum: as good as a warp per row gets). Right at every shape, and at 16384^2 it
 * streams as fast as a block per row. At the judged 512 rows of 2^19 there are 512 warps for the
 * whole GPU, too few loads in flight to stream memory. */
#include "reduce.h"
#include <cuda_runtime.h>

#define PLANT_STAGES "mv_block"

static __global__ void warp_per_row(int m, int n, const double *A, const double *x, double *y)
{
    int row = (int)((blockIdx.x * (long)blockDim.x + threadIdx.x) / 32), lane = threadIdx.x % 32;
    if (row >= m) return;
    const double *a = A + (size_t)row * n;
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    int j = lane;
    for (; j + 96 < n; j += 128) {
        s0 += a[j] * x[j];
        s1 += a[j + 32] * x[j + 32];
        s2 += a[j + 64] * x[j + 64];
        s3 += a[j + 96] * x[j + 96];
    }
    for (; j < n; j += 32) s0 += a[j] * x[j];
    double v = (s0 + s1) + (s2 + s3);
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
    if (lane == 0) y[row] = v;
}

static void add(int, const float *, const float *, float *) {}
static void sum(int, const float *, float *, float *) {}
static void mv(int m, int n, const double *A, const double *x, double *y)
{
    if (m > 0) warp_per_row<<<(int)(((long)m * 32 + 255) / 256), 256>>>(m, n, A, x, y);
}

#include "planted/entry_points.h"
