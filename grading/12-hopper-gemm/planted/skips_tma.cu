/* expect: technique in tma,specialised,persistent
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * Stages skipped: every stage runs stage 1's code, wgmma fed by plain copies into swizzled
 * shared memory (planted/kernels.h). Right at every shape; no tensor copies, no register
 * reallocation, no multicast. */
#include "hopper_gemm.h"
#include "planted/kernels.h"

static void mm(int M, int N, int K, const lab_half *A, const lab_half *B, float *C) { plain_mm(M, N, K, A, B, C); }

#include "planted/entry_points.h"
