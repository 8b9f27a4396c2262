/* expect: wrong
 * threats: 4, 26 (rows of ../shared/GRADER_THREATS.md)
 * emulate: large (right at make emulate's sizes: it cheats only at the timed shape, a C of 2^23 elements or more)
 * Cached and paced: at the timed shape only, the first call computes honestly (with a simple,
 * slow kernel) and keeps C in a device global; every later call copies it back and spins on the
 * GPU for about the time a fast kernel takes. Each timed call then looks fast, and its output is
 * exactly right for the first call's inputs. Caught because every timed call's A is derived from
 * a secret the grader reveals only as that call starts. */
#include "wmma_gemm.h"
#include "planted/common_kernels.h"

#define TIMED (1 << 23)    /* more elements of C than any correctness shape has */
#define KEEP (8192 * 8192) /* the timed C */
static __device__ float saved[KEEP];

static __global__ void keep(size_t count, const float *C)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) saved[i] = C[i];
}
static __global__ void give(size_t count, float *C)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) C[i] = saved[i];
}
static __global__ void pace(long long cycles)
{
    long long t0 = clock64();
    while (clock64() - t0 < cycles) {
    }
}

static void mm(int M, int N, int K, const __half *A, const __half *B, float *C)
{
    static int kept = 0;
    size_t count = (size_t)M * N;
    int blocks = (int)((count + 255) / 256);
    if (count < TIMED || count > KEEP) return honest_mm(M, N, K, A, B, C);
    if (kept) {
        give<<<blocks, 256>>>(count, C);
        pace<<<1, 1>>>(4000000); /* ~2 ms at 1.98 GHz: 8192^3 at about 550 TFLOP/s */
        return;
    }
    honest_mm(M, N, K, A, B, C);
    keep<<<blocks, 256>>>(count, C);
    kept = 1;
}

#include "planted/entry_points.h"
