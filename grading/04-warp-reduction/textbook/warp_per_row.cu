/* textbook: mv_warp
 * A warp per row, the way the CSR "vector" kernel of N. Bell and M. Garland ("Efficient Sparse
 * Matrix-Vector Multiplication on CUDA", NVIDIA Technical Report NVR-2008-004, 2008; the kernel
 * also ships in the CUSP library) assigns the work, applied to a dense matrix and written in this
 * workbook's own code: warp w of the grid (threads 32w .. 32w + 31) owns row w; its lane l walks
 * the columns l, l + 32, l + 64, ..., adding A[w][c] * x[c] into a single register, one element
 * of A loaded at a time; the 32 lane sums are then folded within the warp and lane 0 stores
 * y[w]. Launch shape as in the report: blocks of 256 threads (8 rows each), just enough blocks
 * to give every row its warp. Adaptations, as the lab needs and as the kernel has been written
 * since CUDA 9: the in-warp fold uses __shfl_down_sync with a full mask rather than the report's
 * shared-memory steps (those depend on warp lockstep, which Volta and later do not guarantee);
 * a dense row starts at w * n and its column is the loop index (no row pointers or column
 * indices); y[w] is assigned, not accumulated into, because the lab's y starts as garbage;
 * double precision, as in the report. Graded on `mv_warp` only (the other stages launch
 * nothing): the study of what a pass certifies grades it, and a textbook kernel must pass. */
#include "reduce.h"
#include <cuda_runtime.h>

#define PLANT_STAGES "mv_warp"
#define LANES 32        /* threads of a warp, i.e. of one row */
#define ROW_THREADS 256 /* threads of a block: 8 rows */

/* y[r] = A[r][0 .. cols) . x for the row r that this thread's warp owns. */
static __global__ void mv_rows_by_warps(const int rows, const int cols, const double *A, const double *x, double *y)
{
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    const int r = t / LANES;
    const int lane_no = t & (LANES - 1);
    if (r >= rows) return; /* the whole warp leaves together, so the shuffles below stay full */

    const double *arow = A + (size_t)r * cols;
    double part = 0;
    for (int c = lane_no; c < cols; c += LANES) part += arow[c] * x[c];

    for (int dist = LANES / 2; dist > 0; dist /= 2) part += __shfl_down_sync(0xffffffff, part, dist);
    if (lane_no == 0) y[r] = part;
}

static void add(int, const float *, const float *, float *) {}
static void sum(int, const float *, float *, float *) {}
static void mv(int m, int n, const double *A, const double *x, double *y)
{
    const long threads = (long)m * LANES; /* one warp a row */
    const int blocks = (int)((threads + ROW_THREADS - 1) / ROW_THREADS);
    if (blocks > 0) mv_rows_by_warps<<<blocks, ROW_THREADS>>>(m, n, A, x, y);
}

#include "planted/entry_points.h"
