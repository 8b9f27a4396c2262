/* calib.h - this machine's ceilings: memory bandwidth (triad, read) at a given thread count.
 *
 * `make calibrate` measures them once and caches them in build/calibration/<machine key>.conf; the
 * key hashes the CPU model, core count, cache and memory sizes and host name, so another machine
 * re-measures. Grading also measures triad in the same run (the machines are shared and noisy)
 * and judges by that, showing the cached figure beside it. */
#ifndef CALIB_H
#define CALIB_H

#include <stddef.h>

typedef struct machine {
    char cpu[128];
    int cores;
    size_t llc_bytes;
    char key[17]; /* hex hash naming the cache file */
} machine;

typedef struct bandwidth {
    double triad_gbs; /* a[i] = b[i] + s c[i], counted as 24 bytes per element */
    double read_gbs;  /* a sum over the same bytes: the fastest the machine streams memory in */
} bandwidth;

void machine_read(machine *m);

/* Measure with `threads` threads over about `bytes` bytes in all (median of several passes). */
bandwidth measure_bandwidth(int threads, size_t bytes);

/* The cached calibration for this machine and thread count; measures and writes it if missing
 * or if force is set. Returns 0, or -1 if the cache could not be written (still measured). */
int calibration(const char *dir, const machine *m, int threads, int force, bandwidth *out);

#endif
