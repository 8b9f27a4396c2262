#pragma once
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)
static char *g_flush;
static const size_t FLUSH = 256u << 20;
template <class F> double time_ms(F f, int reps = 15)
{
    if (!g_flush) CK(cudaMalloc(&g_flush, FLUSH));
    cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
    std::vector<float> t;
    f(); CK(cudaDeviceSynchronize());
    for (int r = 0; r < reps; r++) {
        CK(cudaMemsetAsync(g_flush, r, FLUSH));
        CK(cudaEventRecord(a)); f(); CK(cudaEventRecord(b)); CK(cudaEventSynchronize(b));
        float ms; CK(cudaEventElapsedTime(&ms, a, b)); t.push_back(ms);
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
