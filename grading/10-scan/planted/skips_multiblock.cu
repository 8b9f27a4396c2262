/* expect: too-slow in multiblock
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * A stage skipped: `multiblock` runs stage 3's code, one block of 1024 threads walking the whole
 * array a tile at a time: warp shuffles scan each warp's 32 elements, the warps' totals are
 * scanned, and a running carry takes the tile's total on to the next. Right at every size, but
 * one block of a GPU's 132 streaming multiprocessors: under 1% of the copy's rate at the judged
 * size, where the reference's many blocks read about 67%. */
#include "scan.h"

static __global__ void one_block_walk(const int *in, int *out, long long n)
{
    __shared__ int warp_total[32];
    __shared__ int carry;
    int t = threadIdx.x, lane = t % 32, w = t / 32;
    if (t == 0) carry = 0;
    __syncthreads();
    for (long long base = 0; base < n; base += 1024) {
        long long i = base + t;
        int x = i < n ? in[i] : 0, v = x;
        for (int d = 1; d < 32; d *= 2) {
            int u = __shfl_up_sync(0xffffffffu, v, d);
            if (lane >= d) v += u;
        }
        if (lane == 31) warp_total[w] = v;
        __syncthreads();
        if (w == 0) {
            int s = warp_total[lane];
            for (int d = 1; d < 32; d *= 2) {
                int u = __shfl_up_sync(0xffffffffu, s, d);
                if (lane >= d) s += u;
            }
            warp_total[lane] = s; /* inclusive: the sum of warps 0 .. lane */
        }
        __syncthreads();
        int before = carry + (w > 0 ? warp_total[w - 1] : 0);
        if (i < n) out[i] = before + v - x; /* exclusive */
        __syncthreads(); /* every thread has read carry and the totals */
        if (t == 0) carry += warp_total[31];
        __syncthreads();
    }
}

static void sc(int n, const int *in, int *out, int *)
{
    if (n > 0) one_block_walk<<<1, 1024>>>(in, out, n);
}

#include "planted/entry_points.h"
