/* textbook: warp
 * A one-block scan by warp shuffles as the programming guides teach it: 1024 threads, one int
 * each per tile of 1024; each warp scans its 32 values with __shfl_up_sync (five steps), the warps'
 * totals go through shared memory and warp 0 scans them the same way, and a running carry joins
 * the tiles. One value a thread and no vector loads: the plain form. Graded on `warp` only: the
 * study of what a pass certifies grades it, and a technique-correct textbook kernel must pass. */
#include "scan.h"

#include <cuda_runtime.h>

static __device__ int inclusive_in_warp(int v)
{
    int lane = threadIdx.x % 32;
    for (int d = 1; d < 32; d *= 2) {
        int up = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d) v += up;
    }
    return v;
}

static __global__ void one_block(const int *in, int *out, int n)
{
    __shared__ int warp_sums[32];
    __shared__ int carry;
    int t = threadIdx.x, lane = t % 32, w = t / 32;
    if (t == 0) carry = 0;
    for (int base = 0; base < n; base += 1024) {
        int x = base + t < n ? in[base + t] : 0;
        int inc = inclusive_in_warp(x);
        if (lane == 31) warp_sums[w] = inc;
        __syncthreads(); /* the warps' sums are in, and carry is this tile's */
        if (w == 0) warp_sums[lane] = inclusive_in_warp(warp_sums[lane]);
        __syncthreads();
        int before = carry + (w > 0 ? warp_sums[w - 1] : 0), total = warp_sums[31];
        if (base + t < n) out[base + t] = before + inc - x;
        __syncthreads(); /* everyone has read carry and warp_sums: the next tile may write them */
        if (t == 0) carry += total;
    }
}

static void sc(int n, const int *in, int *out, int *work)
{
    (void)work;
    one_block<<<1, 1024>>>(in, out, n);
}

#include "planted/entry_points.h"
