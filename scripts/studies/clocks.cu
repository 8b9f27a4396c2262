// clocks.cu - does a short kernel run slower after the GPU has idled, as it does between a grading's
// timed calls (the scorer fetches and checks each output, 0.1-0.3 s, while the GPU waits)? Lab 11's
// `coarsened` (8192^2, K = 7 and 5) and a 256 MiB device copy, each timed with the grader's timer,
// the L2 flushed before each call: back to back, after 100 ms of idling, and after 100 ms of idling
// then 2 or 20 ms of a kernel spinning on clock64 (no memory traffic), or 0.5, 2 or 20 ms of memsets
// (memory traffic); and with the host asleep for 100 ms while the GPU spins (which of the two idled?).
// With the time the host took to queue each call. The grader's timer holds the device for up to HOLD_NS
// while the host queues the call: 250 us as built, 20 us before the thirty-second session (build with
// -DHOLD_NS=20000ull to see what that cost: docs/BENCHMARKS.md). Run by scripts/studies/run.sh.
#include "common.h"
#include <unistd.h>
#include <time.h>
static double now_us() { timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e6 + t.tv_nsec * 1e-3; }
static double g_enqueue_us; /* the median time the host took to queue the call, last timed() */
#include "11-convolution/conv.cu" /* solutions/, on the include path */

__global__ void spin(long long ns) { long long t0 = clock64(); while (clock64() - t0 < ns * 2) {} }
float *g_in, *g_out;
// mode 0 back to back, 1 idle first, 2 idle then 2 ms of spinning, 3 idle then 0.5 ms and 4 then 2 ms of memsets,
// 5 idle then 20 ms of spinning, 6 idle then 20 ms of memsets, 7 the host asleep for 100 ms while the GPU spins
template <class F> double timed(F f, int mode)
{
    std::vector<double> t, q;
    f(); CK(cudaDeviceSynchronize());
    auto g = [&] { double a = now_us(); f(); q.push_back(now_us() - a); };
    for (int r = 0; r < 15; r++) {
        if (mode == 7) spin<<<132, 32>>>(100000000); /* the GPU busy while the host sleeps */
        if (mode) usleep(100000);
        if (mode == 2) spin<<<132, 32>>>(2000000);
        if (mode == 5) spin<<<132, 32>>>(20000000);
        for (int w = 0; w < (mode == 3 ? 8 : mode == 4 ? 32 : mode == 6 ? 320 : 0); w++) CK(cudaMemsetAsync(g_flush, w, FLUSH));
        CK(cudaMemsetAsync(g_flush, r, FLUSH)); CK(cudaDeviceSynchronize());
        t.push_back(1e3 * wb_gpu_time(call_f<decltype(g)>, &g));
    }
    std::sort(t.begin(), t.end());
    std::sort(q.begin(), q.end());
    g_enqueue_us = q[q.size() / 2];
    return t[t.size() / 2];
}
int main() {
  int m = 8192, n = 8192; size_t N = (size_t)m * n; CK(cudaMalloc(&g_in, 4 * N)); CK(cudaMalloc(&g_out, 4 * N));
  CK(cudaMalloc(&g_flush, FLUSH));
  std::vector<float> h(N); for (size_t i = 0; i < N; i++) h[i] = (float)(i % 1009) / 1009.f; CK(cudaMemcpy(g_in, h.data(), 4 * N, cudaMemcpyHostToDevice));
  const char *how[] = {"back to back", "after 100 ms idle", "after 100 ms idle, then 2 ms busy", "idle, then 0.5 ms of memsets", "idle, then 2 ms of memsets", "idle, then 20 ms spinning", "idle, then 20 ms of memsets", "host asleep 100 ms, GPU spinning"};
  for (int mode = 0; mode < 8; mode++) {
    double k7 = timed([&] { filter_to_constant(7, g_out); coarsened_launch<7>(m, n, g_in, g_out); }, mode), q7 = g_enqueue_us;
    double k5 = timed([&] { filter_to_constant(5, g_out); coarsened_launch<5>(m, n, g_in, g_out); }, mode);
    double cp = timed([&] { cudaMemcpyAsync(g_out, g_in, 4 * N, cudaMemcpyDeviceToDevice); }, mode);
    printf("%-36s coarsened K=7 %.4f ms (queued in %.0f us), K=5 %.4f ms; copy of 256 MiB %.4f ms (%.0f GB/s, queued in %.0f us)\n",
           how[mode], k7, q7, k5, cp, 8.0 * N / cp / 1e6, g_enqueue_us);
  }
}
