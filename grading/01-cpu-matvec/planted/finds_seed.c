/* expect: too-slow in contiguous
 * threats: 43 (rows of ../shared/GRADER_THREATS.md)
 * Looks for the seed of its input: on a timed call it reads 1 KiB of the callers' frames above its
 * own and tries each word as the seed x was made from (the workbook's generator, copied from
 * proto.c: x[j] uniform in [-1, 1) from the seed and j). Where one matches it could make x itself
 * (here it just computes the product once); where none does it computes it four times, too slow.
 * The runner wipes every seed with the stack before the student's code runs (runner.c
 * forget_seed), so none is found. (The rows stage calls the product a row at a time, all small:
 * honest there.) */
#include <stddef.h>
#include <stdint.h>
#include "matvec.h"

static uint64_t mix(uint64_t z)
{
    z ^= z >> 30;
    z *= 0xbf58476d1ce4e5b9ull;
    z ^= z >> 27;
    z *= 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* proto.c's vary_value for lo -1, hi 1, no quantum; the product kept apart from the add (no FMA). */
static double element(uint64_t seed, uint64_t j)
{
    uint64_t z = mix(seed ^ mix(j + 0x9e3779b97f4a7c15ull));
    volatile double scaled = 2.0 * ((double)(z >> 11) * 0x1.0p-53);
    return -1.0 + scaled;
}

static int __attribute__((noinline)) seed_found(const double *x, int n)
{
    const volatile uint64_t *sp = (const volatile uint64_t *)__builtin_frame_address(0);
    for (int k = 0; k < 128; k++) {
        int match = n >= 4;
        for (int j = 0; j < 4 && match; j++) match = element(sp[k], (uint64_t)j) == x[j];
        if (match) return 1;
    }
    return 0;
}

static void once(int m, int n, const double *A, const double *x, double *y)
{
    for (int i = 0; i < m; i++) {
        double s = 0;
        for (int j = 0; j < n; j++) s += A[(size_t)i * n + j] * x[j];
        y[i] = s;
    }
}

static void product(int m, int n, const double *A, const double *x, double *y)
{
    once(m, n, A, x, y);
    if ((size_t)m * n <= (1u << 20) || seed_found(x, n)) return; /* correctness cases, or the seed found */
    for (int r = 0; r < 3; r++) once(m, n, A, x, y);
}

#include "planted/entry_points.h"
