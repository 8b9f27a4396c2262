/* expect: audit
 * threats: 14 (rows of ../shared/GRADER_THREATS.md)
 * Hands the convolution to cuDNN (cudnnConvolutionForward, cross-correlation mode, padding K / 2,
 * one image of one channel): the link line has no cuDNN, and the audit rejects the calls. */
#include "conv.h"

#include <cudnn.h>

static void cv(int m, int n, int K, const float *in, const float *filter, float *out)
{
    static cudnnHandle_t h;
    static cudnnTensorDescriptor_t x, y;
    static cudnnFilterDescriptor_t w;
    static cudnnConvolutionDescriptor_t c;
    const float one = 1.0f, zero = 0.0f;
    if (!h) {
        cudnnCreate(&h);
        cudnnCreateTensorDescriptor(&x), cudnnCreateTensorDescriptor(&y);
        cudnnCreateFilterDescriptor(&w), cudnnCreateConvolutionDescriptor(&c);
    }
    cudnnSetTensor4dDescriptor(x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1, 1, m, n);
    cudnnSetTensor4dDescriptor(y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1, 1, m, n);
    cudnnSetFilter4dDescriptor(w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 1, 1, K, K);
    cudnnSetConvolution2dDescriptor(c, K / 2, K / 2, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT);
    cudnnConvolutionForward(h, &one, x, in, w, filter, c, CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM, nullptr, 0, &zero,
                            y, out);
}

#include "planted/entry_points.h"
