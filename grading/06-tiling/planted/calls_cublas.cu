/* expect: audit
 * threats: 14 (rows of ../shared/GRADER_THREATS.md)
 * Hands the product to cuBLAS: the link line has no cuBLAS, and the audit rejects the call. */
#include "sgemm.h"

#include <cublas_v2.h>

static void mm(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    static cublasHandle_t h;
    if (!h) cublasCreate(&h);
    cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &alpha, B, N, A, K, &beta, C, N);
}

#include "planted/entry_points.h"
