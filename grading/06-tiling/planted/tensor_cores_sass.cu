/* expect: audit
 * threats: 21, 37 (rows of ../shared/GRADER_THREATS.md)
 * Multiplies on the tensor cores (TF32, mma.sync m16n8k8) through inline PTX spelt so that the
 * generated PTX never says "mma.": ptxas takes the opcode and its ".sync.aligned..." on separate
 * lines. The SASS audit finds HMMA in the machine code; the PTX audit, reading the PTX as ptxas
 * does (comments dropped, no white space before a '.'), finds mma. as well. */
#include "sgemm.h"

#include <cuda_runtime.h>

/* One warp per 16 x 8 tile of C, k steps of 8; only multiples of 16 (it is caught before that
 * matters). Fragment layout of mma.m16n8k8.row.col.f32.tf32.tf32.f32: g = lane / 4, t = lane % 4. */
static __global__ void tile(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    int g = threadIdx.x / 4, t = threadIdx.x % 4;
    size_t r0 = blockIdx.y * 16 + g, c0 = blockIdx.x * 8;
    float d0 = 0, d1 = 0, d2 = 0, d3 = 0;
    for (int p = 0; p < K; p += 8) {
        unsigned a0 = __float_as_uint(A[r0 * K + p + t]), a1 = __float_as_uint(A[(r0 + 8) * K + p + t]);
        unsigned a2 = __float_as_uint(A[r0 * K + p + t + 4]), a3 = __float_as_uint(A[(r0 + 8) * K + p + t + 4]);
        unsigned b0 = __float_as_uint(B[(size_t)(p + t) * N + c0 + g]), b1 = __float_as_uint(B[(size_t)(p + t + 4) * N + c0 + g]);
        asm volatile("mma\n\t.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                     "{%0,%1,%2,%3};"
                     : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
                     : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    }
    float *c = C + r0 * N + c0 + 2 * t;
    c[0] = alpha * d0 + beta * c[0];
    c[1] = alpha * d1 + beta * c[1];
    c[8 * N] = alpha * d2 + beta * c[8 * N];
    c[8 * N + 1] = alpha * d3 + beta * c[8 * N + 1];
}

static void mm(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    tile<<<dim3(N / 8, M / 16), 32>>>(M, N, K, alpha, A, B, beta, C);
}

#include "planted/entry_points.h"
