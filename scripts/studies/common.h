#pragma once
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)
static char *g_flush;
static const size_t FLUSH = 256u << 20;
// The grader's own timer (common/runner/gpu_kernels.cu, linked by run.sh): the start event held until the
// call is queued, the end event before the synchronisation; so a study's figures and the grader's
// are timed alike. The median of `reps` calls, the L2 flushed before each.
extern "C" double wb_gpu_time(void (*f)(void *), void *arg);
template <class F> static void call_f(void *f) { (*(F *)f)(); }
template <class F> double time_ms(F f, int reps = 15)
{
    if (!g_flush) CK(cudaMalloc(&g_flush, FLUSH));
    std::vector<double> t;
    f(); CK(cudaDeviceSynchronize());
    for (int r = 0; r < reps; r++) {
        CK(cudaMemsetAsync(g_flush, r, FLUSH)); CK(cudaDeviceSynchronize());
        t.push_back(1e3 * wb_gpu_time(call_f<F>, &f));
    }
    CK(cudaGetLastError());
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}
static double copy_gbs(size_t bytes)
{
    char *x, *y; CK(cudaMalloc(&x, bytes)); CK(cudaMalloc(&y, bytes));
    double ms = time_ms([&] { cudaMemcpyAsync(y, x, bytes, cudaMemcpyDeviceToDevice); });
    CK(cudaFree(x)); CK(cudaFree(y));
    return 2.0 * bytes / ms / 1e6;
}
