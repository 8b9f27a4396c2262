/* expect: audit
 * threats: 14, 21 (rows of ../shared/GRADER_THREATS.md)
 * Rounds the inputs to half and multiplies on the tensor cores with WMMA: fast, but not this
 * lab's FP32 arithmetic (lab 07 is about tensor cores). The audit finds wmma.mma in the PTX. */
#include "sgemm.h"

#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

/* One warp per 16 x 16 tile of C; only multiples of 16 (it is caught before that matters). */
static __global__ void tile(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    __shared__ __half a[16 * 16], b[16 * 16];
    int tm = blockIdx.y, tn = blockIdx.x, lane = threadIdx.x;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::fill_fragment(fc, 0.0f);
    for (int p0 = 0; p0 < K; p0 += 16) {
        for (int e = lane; e < 256; e += 32) {
            a[e] = __float2half(A[(size_t)(tm * 16 + e / 16) * K + p0 + e % 16]);
            b[e] = __float2half(B[(size_t)(p0 + e / 16) * N + tn * 16 + e % 16]);
        }
        __syncwarp();
        wmma::load_matrix_sync(fa, a, 16);
        wmma::load_matrix_sync(fb, b, 16);
        wmma::mma_sync(fc, fa, fb, fc);
        __syncwarp();
    }
    float *c = C + (size_t)tm * 16 * N + tn * 16;
    for (int i = 0; i < fc.num_elements; i++) fc.x[i] *= alpha;
    (void)beta;
    wmma::store_matrix_sync(c, fc, N, wmma::mem_row_major);
}

static void mm(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    tile<<<dim3(N / 16, M / 16), 32>>>(M, N, K, alpha, A, B, beta, C);
}

#include "planted/entry_points.h"
