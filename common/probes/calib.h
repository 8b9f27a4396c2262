/* calib.h - this machine's ceilings: memory bandwidth (triad, read) at a given thread count.
 *
 * `make calibrate` measures them once and caches them in build/calibration/<machine key>.conf; the
 * key hashes the CPU model, core count, cache and memory sizes and host name, so another machine
 * re-measures. Grading also measures triad in the same run (the machines are shared and noisy)
 * and judges by that, showing the cached figure beside it. */
#ifndef CALIB_H
#define CALIB_H

#include <stddef.h>
#include "lab.h"

typedef struct machine {
    char cpu[128];
    int cores;
    size_t llc_bytes;
    char key[17]; /* hex hash naming the cache file */
} machine;

typedef struct bandwidth {
    double stream_gbs; /* the ceiling: CPU triad a[i] = b[i] + s c[i] (24 bytes an element), or
                          GPU device-to-device copy (bytes read + bytes written) */
    double read_gbs;   /* CPU: a sum over the same bytes, the fastest the machine streams memory in */
    double chain_gadds; /* CPU, one thread: dependent double adds a second (G), one add waiting for the
                           last: the rate of a loop written as one chain, however fast memory is */
} bandwidth;

void machine_read(machine *m);

/* Measure with `threads` threads over about `bytes` bytes in all: the best of 7 passes at least,
 * and of as many as fit in `seconds` (ROOF_SECONDS for a ceiling that judges; BUSY_SECONDS for a
 * check that the machine is not far below its calibration). */
#define ROOF_SECONDS 0.15
#define BUSY_SECONDS 0.0
bandwidth measure_bandwidth(int threads, size_t bytes, double seconds);

/* The last-level cache that sizes are judged past (a stage must miss it to be memory-bound, or to
 * need blocking): what the machine reports, or, where one thread already reads at memory's rate
 * from buffers under half that size, twice the largest power-of-two buffer (8 MiB up) still read at
 * 1.25 times that rate or more (cache_knee: the cache lies between it and twice it). A 2-core
 * virtual machine of a 260 MiB L3 (Intel Xeon, model 207, 2026-11-28) read 28 GB/s to 32 MiB, 17
 * at 64 and 9 from 128 MiB on: 64 or 128 MiB (its 64 MiB read falls either side of 1.25 times
 * memory's rate), where sizes past 260 MiB timed ikj at 34 GFLOP a call.
 * Measured once per machine, cached in dir/<key>-llc.conf (force: measured again). */
size_t usable_llc(const char *dir, const machine *m, int force);
size_t cache_knee(size_t llc);

/* The cached calibration for this machine and thread count; measures and writes it if missing
 * or if force is set. Returns 0, or -1 if the cache could not be written (still measured). */
int calibration(const char *dir, const machine *m, int threads, int force, bandwidth *out);

/* Run the GPU probe (build/common/gpu-probe) with `args`, its "key = value" output parsed into c.
 * The scorer never touches CUDA itself, since it forks runners. Returns 0, or -1 if it failed. */
struct config;

/* OpenBLAS dgemm at m x n x k with `threads` threads, through build/common/blas-probe. If OpenBLAS
 * picked a kernel older than the CPU (it does on some virtual CPUs), it is measured again with
 * OPENBLAS_CORETYPE naming the real core; `note` says what happened. GFLOP/s, or 0 on failure. */
double blas_dgemm_gflops(const char *probe, const char *scratch, int m, int n, int k, int threads, char *note,
                         size_t len);

int gpu_probe(const char *probe, const char *args, const char *out_path, struct config *c);

/* cuBLAS `kind` ("sgemm": FP32 without TF32; "hgemm": fp16 inputs, fp32 accumulate and output)
 * at m x n x k through the probe: its GFLOP/s (0 on failure). With `in` (A, B and for sgemm C,
 * row-major, as the scorer packs them), also C = alpha A B + beta C and the magnitude |alpha|
 * |A||B| + |beta| |C| into out (2 m n floats), from files in `scratch`. */
double gpu_gemm(const char *probe, const char *scratch, const char *kind, int m, int n, int k, double alpha,
                double beta, const void *in, size_t in_bytes, float *out);

/* Moving n floats through the GPU, each part timed alone by the probe (seconds): pinned copy in,
 * its own Horner kernel of that degree, copy out; and the host cost of creating a stream. */
/* kernel: the probe's plain kernel (one element a thread), what the ideal is made of; kernel_best:
 * the fastest of it and kernels of several elements a thread, what an impossible time is beyond. */
typedef struct pipeline_times { double h2d, kernel, d2h, stream_create_us, kernel_best; } pipeline_times;
/* Fully overlapped, a call can't beat the longest part; one after another it takes their sum. */
static inline double pipeline_ideal(const pipeline_times *t)
{
    return t->h2d > t->kernel ? (t->h2d > t->d2h ? t->h2d : t->d2h) : (t->kernel > t->d2h ? t->kernel : t->d2h);
}
static inline double pipeline_fastest(const pipeline_times *t)
{
    pipeline_times b = *t;
    b.kernel = t->kernel_best > 0 && t->kernel_best < t->kernel ? t->kernel_best : t->kernel;
    return pipeline_ideal(&b);
}
static inline double pipeline_serial(const pipeline_times *t) { return t->h2d + t->kernel + t->d2h; }
int gpu_pipeline(const char *probe, const char *scratch, int n, int degree, pipeline_times *out);
/* The same for y = A x in double, A (m x n) and x in host memory: copy in of A and x, a warp-per-row
 * kernel, copy out of y. */
int gpu_pipeline_matvec(const char *probe, const char *scratch, int m, int n, pipeline_times *out);
/* A vendor library's routine for a lab's problem (lab_problem.vendor: "cub-scan", "cublas-transpose")
 * at shape s, on data the probe makes: the median seconds of a call, 0 on failure; what it ran, in
 * words, into what. */
double gpu_vendor(const char *probe, const char *scratch, const char *name, lab_shape s, char *what, size_t len);

/* The GPU's cached calibration (copy bandwidth, cuBLAS SGEMM and HGEMM) in `dir`, keyed by this
 * machine and the device name; measured with `gpu-probe --blas` if missing or forced. */
int gpu_calibration(const char *dir, const machine *m, const char *device, const char *probe, int force,
                    struct config *c);

#endif
