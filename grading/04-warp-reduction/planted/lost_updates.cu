/* expect: wrong in interleaved,strided,sequential,shuffle,vectorized,mv_thread,mv_warp,mv_block
 * threats: 22 (rows of ../shared/GRADER_THREATS.md)
 * Races. The sum: every block adds its partial into *out with a plain read-modify-write instead
 * of atomicAdd, so blocks that finish together overwrite each other (a few blocks may happen to
 * be right; thousands never are). Matvec: the 32 lanes of a row's warp each add their partial
 * to y[row] with a plain +=, so one lane's store wins. (Vector add has nothing to race on.) */
#define PLANT_STAGES "interleaved,strided,sequential,shuffle,vectorized,mv_thread,mv_warp,mv_block"
#include "reduce.h"
#define mv honest_mv
#include "planted/common_kernels.h"
#undef mv

static __global__ void zero_f(float *p) { *p = 0.0f; }

static __global__ void racy_sum(int n, const float *in, float *out)
{
    __shared__ float s[256];
    int i = blockIdx.x * 256 + threadIdx.x;
    s[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (int stride = 128; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) *out += s[0]; /* should be atomicAdd(out, s[0]) */
}

static __global__ void racy_mv(int m, int n, const double *A, const double *x, double *y)
{
    int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
    if (row >= m) return;
    double s = 0.0;
    for (int j = lane; j < n; j += 32) s += A[(size_t)row * n + j] * x[j];
    if (lane == 0) y[row] = 0.0;
    __syncwarp();
    y[row] += s; /* 32 lanes, one address: should be a shuffle sum, or atomicAdd */
}

static void sum(int n, const float *in, float *out, float *work)
{
    (void)work;
    zero_f<<<1, 1>>>(out);
    racy_sum<<<(n + 255) / 256, 256>>>(n, in, out);
}
static void mv(int m, int n, const double *A, const double *x, double *y)
{
    racy_mv<<<(int)(((long)m * 32 + 255) / 256), 256>>>(m, n, A, x, y);
}

#include "planted/entry_points.h"
