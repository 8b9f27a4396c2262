/* expect: timeout in tma
 * threats: 17 (rows of ../shared/GRADER_THREATS.md)
 * The commonest hang of this lab: the stage's barrier expects the bytes of A's box and of B's two
 * boxes, but only one of B's is loaded, so the transaction count never reaches zero, the phase
 * never completes, and every thread spins in mbar_wait. The grader's time limit kills the runner,
 * the driver ends the kernel with its context, and grading goes on. (One stage: a hang costs the
 * plant the whole time limit in each stage it is in.) */
#include "hopper_gemm.h"
#include "planted/kernels.h"

static void mm(int M, int N, int K, const lab_half *A, const lab_half *B, float *C) { tma_mm<1>(M, N, K, A, B, C, false); }

#include "planted/entry_points.h"
