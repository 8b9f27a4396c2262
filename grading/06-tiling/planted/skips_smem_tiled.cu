/* expect: technique in smem_tiled
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * A stage skipped: `smem_tiled` runs stage 2's code, one thread an element of C with a warp along
 * a row, every operand read from global memory (through L1). Right at every size; it reads no
 * shared memory, which is what the stage teaches. */
#include "sgemm.h"
#include "planted/common_kernels.h"

static void mm(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    honest_mm(M, N, K, alpha, A, B, beta, C);
}

#include "planted/entry_points.h"
