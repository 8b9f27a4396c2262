/* cuda_check.h - every CUDA and cuBLAS call goes through one of these macros, which print the
 * call as written, the error, and the file and line, then exit. Nobody writes the check by hand.
 *
 *   CUDA_CHECK(cudaMalloc(&p, bytes));
 *   kernel<<<grid, block>>>(...); CUDA_CHECK_LAST();
 *   CUBLAS_CHECK(cublasSgemm(...));                                             */
#ifndef CUDA_CHECK_H
#define CUDA_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime_api.h>

#include "runner_exit.h"

/* Exit status of a program stopped by a failed CUDA call (the runner's scorer knows it). */
#define CUDA_FAILED_STATUS RUNNER_CUDA_ERROR

static inline void cuda_check_at(cudaError_t e, const char *call, const char *file, int line)
{
    if (e == cudaSuccess) return;
    fprintf(stderr, "CUDA error %s (%s)\n  in %s\n  at %s:%d\n", cudaGetErrorName(e), cudaGetErrorString(e), call,
            file, line);
    fflush(stderr);
    exit(CUDA_FAILED_STATUS);
}

#define CUDA_CHECK(call) cuda_check_at((call), #call, __FILE__, __LINE__)

/* Just after the stage's function returned: an error it left is its own, and a launch that could
 * not start (a grid of 0 blocks, over 1024 threads a block, too much shared memory) is reported by
 * nothing else: no synchronisation returns it, so without this the grader's next check would
 * name its own line. */
static inline void cuda_check_student(void)
{
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess) return;
    int launch = e == cudaErrorInvalidConfiguration || e == cudaErrorInvalidValue || e == cudaErrorLaunchOutOfResources;
    fprintf(stderr, "CUDA error %s (%s)\n  left by the stage's function%s\n", cudaGetErrorName(e), cudaGetErrorString(e),
            launch ? ": a kernel launch that could not start (a grid of 0 blocks at this size? over 1024 threads a block? "
                     "more shared memory than a block may have?); cudaGetLastError() after each launch says which"
                   : "");
    fflush(stderr);
    exit(CUDA_FAILED_STATUS);
}
/* After every launch: a bad configuration shows here, a fault at the next synchronisation. */
#define CUDA_CHECK_LAST() cuda_check_at(cudaGetLastError(), "the kernel launch before this line", __FILE__, __LINE__)

#ifdef CUBLAS_CHECK_WANTED
#include <cublas_v2.h>
static inline void cublas_check_at(cublasStatus_t s, const char *call, const char *file, int line)
{
    if (s == CUBLAS_STATUS_SUCCESS) return;
    fprintf(stderr, "cuBLAS error %d\n  in %s\n  at %s:%d\n", (int)s, call, file, line);
    exit(CUDA_FAILED_STATUS);
}
#define CUBLAS_CHECK(call) cublas_check_at((call), #call, __FILE__, __LINE__)
#endif

#endif
