/* scan.cu - lab 10: your CUDA kernels. This is the one file you edit for this lab.
 *
 * Read handouts/10-scan.md first. The prototypes are in grading/10-scan/scan.h (do not edit it).
 * Grade with:  make grade LAB=10   (on a machine with an NVIDIA GPU)
 *
 * Each function writes the exclusive prefix sum of in[0..n) into out: out[0] = 0 and
 * out[i] = in[0] + ... + in[i - 1], for any n from 1 to 2^28. work is n / 8 + 1024 ints of device
 * memory for your own use, garbage at every call. Rules the grader enforces: the pointers are
 * already on the device; launch your kernels on the default stream and return (the grader
 * synchronises and times); make your kernels and helpers `static` (only the functions of scan.h
 * may be global); no cudaMalloc, cudaMemcpy or cudaMemset, and no CUB or Thrust. */
#include "scan.h"

#include <cuda_runtime.h>

/* ---------------------------------------------------------------- stages 1-3: one block */

/* TODO(stage 1): one block of 1024 threads walks the array in tiles of 1024 ints (or 4096, four a
 * thread), keeping the running total of the tiles before in a register. Within a tile, Hillis-
 * Steele: put each thread's value in shared memory; for d = 1, 2, 4, ... < 1024, thread t adds the
 * value d places back (if t >= d), reading one buffer and writing the other, with __syncthreads()
 * between steps. That gives the inclusive scan: subtract your own value for the exclusive one. */
extern "C" void scan_hillis_steele(int n, const int *in, int *out, int *work)
{
    (void)n, (void)in, (void)out, (void)work;
}

/* TODO(stage 2): the same walk over tiles of 2048 ints, two a thread, scanned by the work-efficient
 * up-sweep (a tree of partial sums, in place) and down-sweep (clear the root, push prefixes down).
 * Store index k at k + k / 32 in shared memory so that the tree's strided accesses do not all fall
 * on the same few banks. */
extern "C" void scan_blelloch(int n, const int *in, int *out, int *work)
{
    (void)n, (void)in, (void)out, (void)work;
}

/* TODO(stage 3): the same walk, each warp scanning its 32 values with __shfl_up_sync (for d = 1,
 * 2, ..., 16: add the value d lanes down), the last lane of each warp writing the warp's total to
 * shared memory, warp 0 scanning those 32 totals the same way, every thread adding its warp's
 * offset. */
extern "C" void scan_warp(int n, const int *in, int *out, int *work)
{
    (void)n, (void)in, (void)out, (void)work;
}

/* ---------------------------------------------------------------- stages 4-5: many blocks */

/* TODO(stage 4): one block a tile. Kernel 1 writes each tile's total to work; the totals are then
 * scanned (if there are more than one tile's worth, by this same function called on work, with
 * the rest of work as its work); kernel 2 scans each tile again and adds its scanned total. */
extern "C" void scan_multiblock(int n, const int *in, int *out, int *work)
{
    (void)n, (void)in, (void)out, (void)work;
}

/* TODO(stage 5): one kernel, one block a tile, after a small kernel that clears a state a tile in
 * work. A block takes its tile number from atomicAdd on a counter (so its predecessors have all
 * started), scans its tile, publishes its total in its state at once, then looks back at its
 * predecessors' states: a total adds and the look goes further back; an inclusive prefix adds and
 * ends it. It then publishes its own inclusive prefix and writes its outputs. */
extern "C" void scan_lookback(int n, const int *in, int *out, int *work)
{
    (void)n, (void)in, (void)out, (void)work;
}
