/* expect: audit
 * threats: 9 (rows of ../shared/GRADER_THREATS.md)
 * No constructor attribute: a pointer to its function placed by hand in the .init_array
 * section, next to nvcc's registration, so that the loader runs it before main. The audit allows
 * the object exactly nvcc's one entry. */
#include "wmma_gemm.h"
#include "planted/common_kernels.h"

static int tampered;
static void early(void) { tampered = 1; /* the place to patch the runner before it starts */ }
static void (*run_early)(void) __attribute__((section(".init_array"), used)) = early;

static void mm(int M, int N, int K, const lab_half *A, const lab_half *B, float *C)
{
    honest_mm(M, N, K, A, B, C);
    (void)tampered;
}

#include "planted/entry_points.h"
