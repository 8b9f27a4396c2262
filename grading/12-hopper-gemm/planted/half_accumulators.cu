/* expect: wrong
 * threats: 21 (rows of ../shared/GRADER_THREATS.md)
 * Sums in half precision: stage 1's kernel with wgmma's .f16 accumulators (11 significant bits,
 * twice the tensor cores' rate on some parts) instead of .f32, in every stage. The lab states float
 * accumulation, and the bound derived from it (K and float's precision) refuses these sums at the
 * first case already, K = 64 (on an H200: 54994 of 65536 elements, errors near 3e-4 against a
 * bound near 1e-4); the technique check would refuse the .f16.f16.f16 form too. */
#include "hopper_gemm.h"
#include "planted/kernels.h"

/* wgmma with half accumulators: 32 registers a thread, each two halves */
static __device__ __forceinline__ void wgmma_half_acc(uint32_t (&d)[32], uint64_t a, uint64_t b)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n128k16.f16.f16.f16 {"
                 "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
                 "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31"
                 "}, %32, %33, p, 1, 1, 0, 1;\n}\n"
                 :
                   "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]), "+r"(d[7]),
                   "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]), "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15]),
                   "+r"(d[16]), "+r"(d[17]), "+r"(d[18]), "+r"(d[19]), "+r"(d[20]), "+r"(d[21]), "+r"(d[22]), "+r"(d[23]),
                   "+r"(d[24]), "+r"(d[25]), "+r"(d[26]), "+r"(d[27]), "+r"(d[28]), "+r"(d[29]), "+r"(d[30]), "+r"(d[31])
                 : "l"(a), "l"(b), "n"(1));
}

static __global__ void __launch_bounds__(128) half_sums(int M, int N, int K, const __half *A, const __half *B, float *C)
{
    __shared__ __align__(1024) __half As[64 * 64], Bs[64 * 128];
    uint32_t d[32] = {};
    int bm = blockIdx.y * 64, bn = blockIdx.x * 128, t = threadIdx.x, w = t / 32, lane = t % 32;
    for (int k0 = 0; k0 < K; k0 += 64) {
        plant_copy(As, Bs, A, B, N, K, bm, bn, k0, t);
        wgmma_fence();
        for (int kk = 0; kk < 4; kk++) wgmma_half_acc(d, plant_desc(As + kk * 16, 16), plant_desc(Bs + kk * 16 * 64, 8192));
        wgmma_commit();
        wgmma_wait<0>();
        __syncthreads();
    }
    for (int i = 0; i < 32; i++) { /* register i holds the pair d[2i], d[2i + 1] of the float layout */
        __half2 h = *(__half2 *)&d[i];
        int j = 2 * i, row = bm + 16 * w + lane / 4 + 8 * ((j / 2) % 2), col = bn + 8 * (j / 4) + 2 * (lane % 4);
        *(float2 *)(C + (size_t)row * N + col) = __half22float2(h);
    }
}

static void mm(int M, int N, int K, const lab_half *A, const lab_half *B, float *C)
{
    half_sums<<<dim3(N / 128, M / 64), 128>>>(M, N, K, A, B, C);
}

#include "planted/entry_points.h"
