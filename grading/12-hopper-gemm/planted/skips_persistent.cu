/* expect: technique in persistent
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * Stage 4 skipped: every stage runs stage 3's code, a producer warpgroup that gives up its
 * registers and a consumer with full and empty barriers (planted/kernels.h), a block a tile: no
 * cluster, no multicast. */
#include "hopper_gemm.h"
#include "planted/kernels.h"

static void mm(int M, int N, int K, const lab_half *A, const lab_half *B, float *C) { tma_mm(M, N, K, A, B, C, true); }

#include "planted/entry_points.h"
