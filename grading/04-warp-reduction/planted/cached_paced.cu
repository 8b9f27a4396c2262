/* expect: wrong in interleaved,strided,sequential,shuffle,vectorized,mv_thread,mv_warp,mv_block
 * threats: 4, 26 (rows of ../shared/GRADER_THREATS.md)
 * Cached and paced: at the timed size only, the first call computes honestly (with a simple,
 * slow kernel) and keeps the result in a device global; every later call copies it out and
 * spins on the GPU until a plausible time has passed. Each timed call then looks fast, and its
 * output is exactly right for the first call's inputs. Caught because every timed call's input
 * is derived from a secret the grader reveals only as that call starts. */
#define PLANT_STAGES "interleaved,strided,sequential,shuffle,vectorized,mv_thread,mv_warp,mv_block"
#include "reduce.h"
#define mv honest_mv
#include "planted/common_kernels.h"
#undef mv

#define TIMED_SUM (1 << 24) /* the timed sum is 2^28 elements, correctness cases under 2^20 */
#define KEEP_ROWS 16384     /* the timed y of mv_thread and mv_warp (16384 x 16384); mv_block's has 512 */
static __device__ float saved_sum;
static __device__ double saved_y[KEEP_ROWS];

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
/* Spin about `cycles` SM clocks: the pace of an honest fast kernel. */
static __global__ void pace(long long cycles)
{
    long long t0 = clock64();
    while (clock64() - t0 < cycles) {
    }
}

static void sum(int n, const float *in, float *out, float *work)
{
    static int kept = 0;
    if (n < TIMED_SUM) return honest_sum(n, in, out, work);
    if (kept) {
        give_sum<<<1, 1>>>(out);
        pace<<<1, 1>>>(800000); /* ~0.4 ms: 1 GiB read at about 2.7 TB/s */
        return;
    }
    honest_sum(n, in, out, work);
    keep_sum<<<1, 1>>>(out);
    kept = 1;
}

static void mv(int m, int n, const double *A, const double *x, double *y)
{
    static int kept = 0;
    int timed = (m == KEEP_ROWS && n == KEEP_ROWS) || (m == 512 && n == 1 << 19); /* mv_block's few long rows */
    if (!timed) return honest_mv(m, n, A, x, y);
    if (kept) {
        give_rows<<<(m + 255) / 256, 256>>>(m, y);
        pace<<<1, 1>>>(1600000); /* ~0.8 ms: 2 GiB of A */
        return;
    }
    honest_mv(m, n, A, x, y);
    keep_rows<<<(m + 255) / 256, 256>>>(m, y);
    kept = 1;
}

#include "planted/entry_points.h"
