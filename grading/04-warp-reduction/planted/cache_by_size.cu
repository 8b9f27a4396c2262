/* expect: wrong in interleaved,strided,sequential,shuffle,vectorized,mv_thread,mv_warp,mv_block
 * threats: 4 (rows of ../shared/GRADER_THREATS.md)
 * Keeps the last sum (and the last y, up to 16384 rows) in device globals and, when called
 * again with the same size, copies it out instead of computing. The second correctness call of
 * every size has new inputs. (Vector add is left out: its output is too large to keep.) */
#define PLANT_STAGES "interleaved,strided,sequential,shuffle,vectorized,mv_thread,mv_warp,mv_block"
#include "reduce.h"
#define mv honest_mv
#include "planted/common_kernels.h"
#undef mv

#define KEEP_ROWS 16384
static __device__ float saved_sum;
static __device__ double saved_y[KEEP_ROWS];

/* Kernels reach the device globals directly: no runtime call needed. */
static __global__ void keep_sum(const float *out) { saved_sum = *out; }
static __global__ void give_sum(float *out) { *out = saved_sum; }
static __global__ void keep_rows(int m, const double *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < m) saved_y[i] = y[i];
}
static __global__ void give_rows(int m, double *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < m) y[i] = saved_y[i];
}

static void sum(int n, const float *in, float *out, float *work)
{
    static int last_n = -1;
    if (n == last_n) {
        give_sum<<<1, 1>>>(out);
        return;
    }
    honest_sum(n, in, out, work);
    keep_sum<<<1, 1>>>(out);
    last_n = n;
}

static void mv(int m, int n, const double *A, const double *x, double *y)
{
    static int last_m = -1, last_n = -1;
    if (m == last_m && n == last_n) {
        give_rows<<<(m + 255) / 256, 256>>>(m, y);
        return;
    }
    honest_mv(m, n, A, x, y);
    if (m <= KEEP_ROWS) {
        keep_rows<<<(m + 255) / 256, 256>>>(m, y);
        last_m = m, last_n = n;
    }
}

#include "planted/entry_points.h"
