/* expect: too-slow in three_pass
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * The code before stage 1's technique: the CPU loop moved to the GPU, one thread a row, each
 * thread reading its row three times by itself (no block, no reduction across threads). Right at
 * every shape. Neighbouring threads read addresses a row apart, so a warp's load touches 32
 * lines; what saves it is L1 holding those lines across the next 31 elements. It must not earn
 * `three_pass`, which asks for a block's threads to share a row. */
#include "softmax.h"

#include <cfloat>

static __global__ void thread_rows(int m, int n, const float *in, float *out)
{
    int row = (int)(blockIdx.x * (size_t)blockDim.x + threadIdx.x);
    if (row >= m) return;
    const float *x = in + (size_t)row * n;
    float *y = out + (size_t)row * n;
    float mx = -FLT_MAX, s = 0;
    for (int j = 0; j < n; j++) mx = fmaxf(mx, x[j]);
    for (int j = 0; j < n; j++) s += expf(x[j] - mx);
    for (int j = 0; j < n; j++) y[j] = expf(x[j] - mx) / s;
}

static void sm(int m, int n, const float *in, float *out)
{
    if (m > 0) thread_rows<<<(unsigned)((m + 255) / 256), 256>>>(m, n, in, out);
}

#include "planted/entry_points.h"
