/* expect: audit
 * threats: 14 (rows of ../shared/GRADER_THREATS.md)
 * Hands the product to cuBLAS, the ceiling itself: the link line has no cuBLAS, and the audit
 * rejects the call. */
#include "hopper_gemm.h"

#include <cublas_v2.h>

static void mm(int M, int N, int K, const lab_half *A, const lab_half *B, float *C)
{
    static cublasHandle_t h;
    if (!h) cublasCreate(&h);
    const float one = 1, zero = 0;
    cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, B, CUDA_R_16F, N, A, CUDA_R_16F, K, &zero, C, CUDA_R_32F, N,
                 CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
}

#include "planted/entry_points.h"
