/* expect: technique in specialised,persistent
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * Stages skipped: every stage runs stage 2's code, the TMA bringing each k tile to a block that
 * waits on its mbarrier (planted/kernels.h). Right at every shape; every warpgroup issues both
 * copies and MMAs, so no registers move between them, and nothing is multicast. */
#include "hopper_gemm.h"
#include "planted/kernels.h"

static void mm(int M, int N, int K, const lab_half *A, const lab_half *B, float *C) { tma_mm(M, N, K, A, B, C, false); }

#include "planted/entry_points.h"
