/* textbook: mv_warp
 * A warp per row as the textbooks teach it: the CSR "vector" kernel of Bell and Garland
 * ("Efficient Sparse Matrix-Vector Multiplication on CUDA", NVIDIA Technical Report
 * NVR-2008-004, spmv_csr_vector_kernel), dense case: global warp w = thread / 32 takes row w,
 * lane l adds A[row][j] x[j] for j = l, l + 32, ... (one running sum a lane, one load of A at a
 * time), the 32 sums are reduced within the warp, lane 0 writes y[row]; blocks of 256 threads
 * (8 rows), as many blocks as the rows need (the report's one-warp-a-row launch). As the lab
 * needs, and as the kernel is taught since CUDA 9: the warp's sums reduced with
 * __shfl_down_sync(0xffffffff, ...) instead of the report's shared-memory steps (which rely on
 * the warp's implicit lockstep, unsafe from Volta on); dense rows (row_start = row * n, column j)
 * instead of CSR's pointers and indices; y[row] = sum (the report's y += A x; the lab's y holds
 * garbage); double, as in the report's code. Graded on `mv_warp` only (the other stages launch
 * nothing): the study of what a pass certifies grades it, and a textbook kernel must pass. */
#include "reduce.h"
#include <cuda_runtime.h>

#define PLANT_STAGES "mv_warp"
#define BLOCK_SIZE 256
#define WARP_SIZE 32

static __global__ void spmv_dense_vector_kernel(const int num_rows, const int num_cols, const double *A,
                                                const double *x, double *y)
{
    int thread_id = blockDim.x * blockIdx.x + threadIdx.x; // global thread index
    int warp_id = thread_id / WARP_SIZE;                   // global warp index
    int lane = thread_id & (WARP_SIZE - 1);                // thread index within the warp
    // one warp per row
    int row = warp_id;
    if (row < num_rows) {
        const double *a = A + (size_t)row * num_cols;
        // compute running sum per thread
        double sum = 0;
        for (int jj = lane; jj < num_cols; jj += WARP_SIZE) sum += a[jj] * x[jj];
        // parallel reduction within the warp
        for (int offset = WARP_SIZE / 2; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffff, sum, offset);
        // first thread writes the result
        if (lane == 0) y[row] = sum;
    }
}

static void add(int, const float *, const float *, float *) {}
static void sum(int, const float *, float *, float *) {}
static void mv(int m, int n, const double *A, const double *x, double *y)
{
    int num_blocks = (int)(((long)m * WARP_SIZE + BLOCK_SIZE - 1) / BLOCK_SIZE);
    if (num_blocks > 0) spmv_dense_vector_kernel<<<num_blocks, BLOCK_SIZE>>>(m, n, A, x, y);
}

#include "planted/entry_points.h"
