/* textbook: hillis_steele
 * A one-block scan by Hillis and Steele's step doubling, following the design of the naive scan
 * of GPU Gems 3, chapter 39 (M. Harris, S. Sengupta and J. D. Owens, "Parallel Prefix Sum (Scan)
 * with CUDA", Addison-Wesley, 2007; Example 39-1), written in this workbook's own code: one value
 * a thread, loaded shifted right by one place so that the scan comes out exclusive with no
 * subtraction; two buffers in one dynamically sized shared array, whose roles (in, out) swap at
 * every step; at distance offset = 1, 2, 4, ... a thread at or past offset writes its in-value
 * plus the in-value offset places back, a thread before it copies its in-value across; one
 * __syncthreads() after the load and one after each step. Lab adaptations: the book scans one
 * block's worth of floats, as many as the block has threads; here the ints are any number from 1
 * to 2^28, so one block of 1024 threads walks them in tiles of 1024 (the block's width is the
 * book's n), and a running carry joins the tiles. The book's right shift is kept across tiles:
 * tile k's window is in[1024 k - 1] .. in[1024 k + 1022] (zero before the array and past its
 * end), so the carry holds the sum of everything before the window and grows by the window's last
 * prefix; each output is the carry plus its thread's prefix, stored only below n. One more
 * barrier ends each tile, so that no thread loads the next window over a prefix a slower warp
 * has still to read. The book's step adds into the out-buffer (`+=`), which holds the prefix of
 * two steps before: a known erratum of the printed listing, which no correct scan can keep; here
 * the step writes in-value plus in-value. Ints instead of floats; the input pointer is const.
 * Graded on `hillis_steele` only: the other stages run the same code. */
#include "scan.h"

#include <cuda_runtime.h>

#define WIDTH 1024 /* threads in the block, values in a tile */

static __global__ void doubling_scan(int *out, const int *in, int n)
{
    extern __shared__ int buf[]; /* two buffers of WIDTH ints: buf[0 .. WIDTH) and buf[WIDTH .. 2 WIDTH) */
    const int t = threadIdx.x;
    int carry = 0; /* the sum of in[0 .. base - 2]: all before this tile's window */
    for (int base = 0; base < n; base += WIDTH) {
        int dst = 0, src = 1;
        const int from = base + t - 1; /* the window is shifted right by one */
        buf[dst * WIDTH + t] = from >= 0 && from < n ? in[from] : 0;
        __syncthreads();
        for (int offset = 1; offset < WIDTH; offset *= 2) {
            dst = 1 - dst; /* the buffer just written becomes the one read */
            src = 1 - dst;
            if (t >= offset)
                buf[dst * WIDTH + t] = buf[src * WIDTH + t] + buf[src * WIDTH + t - offset];
            else
                buf[dst * WIDTH + t] = buf[src * WIDTH + t];
            __syncthreads();
        }
        if (base + t < n) out[base + t] = carry + buf[dst * WIDTH + t];
        carry += buf[dst * WIDTH + WIDTH - 1];
        __syncthreads(); /* every prefix read: the next window may be loaded */
    }
}

static void sc(int n, const int *in, int *out, int *work)
{
    (void)work;
    doubling_scan<<<1, WIDTH, 2 * WIDTH * sizeof(int)>>>(out, in, n);
}

#include "planted/entry_points.h"
