/* expect: audit
 * threats: 13 (rows of ../shared/GRADER_THREATS.md)
 * Includes the reference solution through the lab header folder, its functions renamed. */
#include "gemm.h"
#define gemm_ijk ref_ijk
#define gemm_ikj ref_ikj
#define gemm_jik ref_jik
#define gemm_jki ref_jki
#define gemm_kij ref_kij
#define gemm_kji ref_kji
#define gemm_blocked ref_blocked
#define gemm_register ref_register
#include "../../solutions/02-loop-order/gemm.c"
#undef gemm_ijk
#undef gemm_ikj
#undef gemm_jik
#undef gemm_jki
#undef gemm_kij
#undef gemm_kji
#undef gemm_blocked
#undef gemm_register

static void mm(int m, int n, int k, const double *A, const double *B, double *C) { ref_register(m, n, k, A, B, C); }

#include "planted/entry_points.h"
