/* expect: wrong in ikj
 * threats: 4, 26 (rows of ../shared/GRADER_THREATS.md)
 * Keeps a copy of A B keyed by a checksum of B, so the correctness calls (all new inputs) are
 * right and a timed run that repeated its inputs would be served from the copy (about k times
 * less work). Every timed call's A is new, derived from a secret revealed as the call starts:
 * caught as wrong. (Keyed on A too, the cache would never hit: honest work.) (One stage, timed at
 * 512^3, to keep the plant quick.) */
#define PLANT_STAGES "ikj"
#include <stdlib.h>

#include "planted/common.h"
#include "gemm.h"

static unsigned long long checksum(size_t count, const double *v)
{
    unsigned long long h = 1469598103934665603ull;
    for (size_t e = 0; e < count; e++) {
        union { double d; unsigned long long u; } x = {v[e]};
        h = (h ^ x.u) * 1099511628211ull;
    }
    return h;
}

static void mm(int m, int n, int k, const double *A, const double *B, double *C)
{
    static unsigned long long last;
    static double *saved;
    static size_t saved_n;
    size_t mn = (size_t)m * n;
    unsigned long long h = (checksum((size_t)k * n, B) * 31) ^ (unsigned)(m * 7 + n * 5 + k);
    if (h != last || saved_n != mn) {
        free(saved);
        saved = calloc(mn + 1, sizeof *saved);
        ikj(m, n, k, A, B, saved);
        last = h, saved_n = mn;
    }
    for (size_t e = 0; e < mn; e++) C[e] += saved[e];
}

#include "planted/entry_points.h"
