/* expect: audit
 * threats: 6 (rows of ../shared/GRADER_THREATS.md)
 * Leaves the launch to a detached std::thread, which would start the kernel after the runner's
 * timing had ended. The audit allows no thread library calls in a GPU lab. */
#include <thread>

#include "sgemm.h"
#include "planted/common_kernels.h"

static void mm(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    std::thread([=] { honest_mm(M, N, K, alpha, A, B, beta, C); }).detach();
}

#include "planted/entry_points.h"
