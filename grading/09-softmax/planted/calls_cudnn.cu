/* expect: audit
 * threats: 14 (rows of ../shared/GRADER_THREATS.md)
 * Hands the softmax to cuDNN (cudnnSoftmaxForward, accurate, per instance over the channels): the
 * link line has no cuDNN, and the audit rejects the calls. */
#include "softmax.h"

#include <cudnn.h>

static void sm(int m, int n, const float *in, float *out)
{
    static cudnnHandle_t h;
    static cudnnTensorDescriptor_t t;
    const float one = 1.0f, zero = 0.0f;
    if (!h) cudnnCreate(&h), cudnnCreateTensorDescriptor(&t);
    cudnnSetTensor4dDescriptor(t, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, m, n, 1, 1);
    cudnnSoftmaxForward(h, CUDNN_SOFTMAX_ACCURATE, CUDNN_SOFTMAX_MODE_INSTANCE, &one, t, in, &zero, t, out);
}

#include "planted/entry_points.h"
