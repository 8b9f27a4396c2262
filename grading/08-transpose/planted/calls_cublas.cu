/* expect: audit
 * threats: 14 (rows of ../shared/GRADER_THREATS.md)
 * Hands the transpose to cuBLAS's geam (C = alpha op(A) + beta op(B) with op = transpose, beta =
 * 0): the link line has no cuBLAS, and the audit rejects the call. */
#include "transpose.h"

#include <cublas_v2.h>

static void tr(int m, int n, const float *in, float *out)
{
    static cublasHandle_t h;
    const float one = 1.0f, zero = 0.0f;
    if (!h) cublasCreate(&h);
    /* in is n x m column-major; its transpose, m x n column-major, is out in row-major */
    cublasSgeam(h, CUBLAS_OP_T, CUBLAS_OP_N, m, n, &one, in, n, &zero, out, m, out, m);
}

#include "planted/entry_points.h"
