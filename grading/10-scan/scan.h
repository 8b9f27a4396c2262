/* scan.h - lab 10: the functions you write in labs/10-scan/scan.cu. Do not edit.
 *
 * Every function writes the exclusive prefix sum of the n ints of `in` into `out`:
 *
 *     out[0] = 0,   out[i] = in[0] + in[1] + ... + in[i - 1]
 *
 * for any n from 1 to 2^28 (the inputs are small, so no sum overflows an int). `work` is device
 * memory of at least n / 8 + 1024 ints for your own use (block sums, tile states, a counter): its
 * contents are garbage at every call, so set whatever you read there. All three are device
 * pointers to separate arrays; launch your kernels on the default stream and return: the grader
 * synchronises and times. */
#ifndef SCAN_H
#define SCAN_H

#ifdef __cplusplus
extern "C" {
#endif

/* Stages 1-3 run as ONE thread block, which walks the array tile by tile and carries the running
 * total from each tile to the next; they differ in how the block scans a tile. */
/* Stage 1: Hillis-Steele: log2(tile) steps, each adding the value `offset` places back. */
void scan_hillis_steele(int n, const int *in, int *out, int *work);
/* Stage 2: the work-efficient scan (Blelloch): an up-sweep to a tree of partial sums, a down-
 * sweep back, in shared memory padded against bank conflicts. */
void scan_blelloch(int n, const int *in, int *out, int *work);
/* Stage 3: warp shuffles: each warp scans 32 values in registers, then the warps' totals. */
void scan_warp(int n, const int *in, int *out, int *work);
/* Stage 4: many blocks, scan-then-propagate: blocks scan (or sum) their tiles, the tiles' totals
 * are scanned (the same way again, as often as their number needs), and each tile adds its offset. */
void scan_multiblock(int n, const int *in, int *out, int *work);
/* Stage 5: one pass: each tile publishes its total and, once its offset is known, its inclusive
 * prefix; a tile's offset comes from looking back at its predecessors' (decoupled look-back). */
void scan_lookback(int n, const int *in, int *out, int *work);

#ifdef __cplusplus
}
#endif

#endif
