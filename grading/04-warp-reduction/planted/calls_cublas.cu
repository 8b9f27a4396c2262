/* expect: audit
 * threats: 14 (rows of ../shared/GRADER_THREATS.md)
 * Hands the sum to cuBLAS (a dot product with a vector of ones): the link line has no cuBLAS and
 * the audit rejects the call. */
#include "reduce.h"
#include "planted/common_kernels.h"
#include <cublas_v2.h>

static void sum(int n, const float *in, float *out, float *work)
{
    static cublasHandle_t h;
    if (!h) cublasCreate(&h);
    cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE);
    cublasSasum(h, n, in, 1, out); /* not even the right function: |x| summed */
    (void)work;
}

#include "planted/entry_points.h"
