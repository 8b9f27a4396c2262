/* timer_hold.cu - the GPU timer's hold and its release (common/runner/gpu_kernels.cu), on the
 * device: run by tests/test_grading.c, built by the Makefile with the link options every GPU runner
 * gets (gpu_register.h).
 *
 * wb_gpu_time holds the stream with a one-thread kernel until the call has been queued, for at most
 * the hold. A call that waits for the device inside itself would wait the hold out, unless that wait
 * lets the hold go first: cudaDeviceSynchronize, the one such call labs 04 and 06-11 allow, is
 * wrapped at link to do so. (The wait would not show in the time the timer claims, which starts when
 * the hold ends; it shows in the call's time from outside, which the scorer's floor is made from.)
 * Three calls of one tiny kernel, each timed from outside (the host's clock around wb_gpu_time),
 * median of many:
 *   plain           the kernel alone;
 *   device sync     the kernel, then cudaDeviceSynchronize (wrapped): must time as the plain one;
 *   stream sync     the kernel, then cudaStreamSynchronize (not wrapped): waits the hold out, which
 *                   proves that the hold is there and that this test can tell.
 * Exit 0 when both hold, 1 when not, 0 with "skipped: no CUDA device" where there is none. */
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cuda_runtime.h>

extern "C" double wb_gpu_time(void (*f)(void *), void *arg);
extern "C" void wb_gpu_timer_hold(unsigned long long ns);

__global__ void tiny(int *p) { p[threadIdx.x] += 1; }

static int *cell;
static void plain(void *) { tiny<<<1, 32>>>(cell); }
static void device_sync(void *)
{
    tiny<<<1, 32>>>(cell);
    cudaDeviceSynchronize();
}
static void stream_sync(void *)
{
    tiny<<<1, 32>>>(cell);
    cudaStreamSynchronize(0);
}

static double median_us(void (*f)(void *))
{
    enum { N = 41 };
    double t[N];
    for (int i = 0; i < N; i++) {
        auto t0 = std::chrono::steady_clock::now();
        wb_gpu_time(f, nullptr);
        t[i] = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
    }
    std::sort(t, t + N);
    return t[N / 2];
}

int main()
{
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        printf("GPU timer's hold: skipped: no CUDA device\n");
        return 0;
    }
    const double hold_us = 250;
    wb_gpu_timer_hold((unsigned long long)(hold_us * 1000));
    if (cudaMalloc(&cell, 32 * sizeof *cell) != cudaSuccess) return 1;
    cudaMemset(cell, 0, 32 * sizeof *cell);
    median_us(plain); /* warm-up */
    double p = median_us(plain), d = median_us(device_sync), s = median_us(stream_sync);
    int released = d < p + 0.2 * hold_us, held = s > 0.8 * hold_us;
    printf("GPU timer's hold (%.0f us): plain call %.1f us, with cudaDeviceSynchronize %.1f us (%s), "
           "with cudaStreamSynchronize %.1f us (%s)\n",
           hold_us, p, d, released ? "released: ok" : "NOT released", s, held ? "held: ok" : "NOT held");
    return released && held ? 0 : 1;
}
