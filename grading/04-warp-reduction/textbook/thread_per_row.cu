/* textbook: mv_thread
 * A thread per row, the way the CSR "scalar" kernel of N. Bell and M. Garland ("Efficient Sparse
 * Matrix-Vector Multiplication on CUDA", NVIDIA Technical Report NVR-2008-004, 2008; the kernel
 * also ships in the CUSP library, and D. Kirk and W. Hwu's "Programming Massively Parallel
 * Processors" teaches the same CSR kernel) assigns the work, applied to a dense matrix and
 * written in this workbook's own code: thread t of the grid (block index times block size plus
 * thread index) owns row t, if t < m; it walks the row's columns one after another, adding
 * A[t][j] * x[j] into a single register, and stores the dot product in y[t]. Neighbouring threads
 * thus read addresses a row apart (the uncoalesced pattern the report measures against its
 * warp-per-row "vector" kernel, textbook/warp_per_row.cu). Launch shape as in the report: blocks
 * of 256 threads, just enough blocks to give every row its thread (m rounded up to a whole
 * block). Adaptations, as the lab needs: a dense row starts at t * n and its column is the loop
 * index (no row pointers or column indices), the row's offset formed in size_t (an int product
 * would wrap past 2^31 elements); y[t] is assigned, not accumulated into, because the lab's y starts
 * as garbage; double precision, as in the report. Graded on `mv_thread` only (the other stages
 * launch nothing): the study of what a pass certifies grades it, and a textbook kernel must
 * pass. */
#include "reduce.h"
#include <cuda_runtime.h>

#define PLANT_STAGES "mv_thread"
#define ROW_THREADS 256 /* threads of a block: 256 rows */

/* y[r] = A[r][0 .. cols) . x for the row r that this thread owns. */
static __global__ void mv_rows_by_threads(const int rows, const int cols, const double *A, const double *x, double *y)
{
    const int r = blockDim.x * blockIdx.x + threadIdx.x;
    if (r < rows) {
        const double *arow = A + (size_t)r * cols;
        double dot = 0;
        for (int c = 0; c < cols; c++) dot += arow[c] * x[c];
        y[r] = dot;
    }
}

static void add(int, const float *, const float *, float *) {}
static void sum(int, const float *, float *, float *) {}
static void mv(int m, int n, const double *A, const double *x, double *y)
{
    const int blocks = (m + ROW_THREADS - 1) / ROW_THREADS;
    if (blocks > 0) mv_rows_by_threads<<<blocks, ROW_THREADS>>>(m, n, A, x, y);
}

#include "planted/entry_points.h"
