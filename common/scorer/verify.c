/* verify.c - see verify.h. */
#include "verify.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

size_t count_bad(const double *got, const double *ref, const double *bound, size_t n, size_t *first)
{
    size_t bad = 0;
    for (size_t i = 0; i < n; i++)
        if (!(fabs(got[i] - ref[i]) <= bound[i]) || !isfinite(got[i])) {
            if (bad++ == 0 && first) *first = i;
        }
    return bad;
}

static int same_bits(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

static int is_bad(const double *got, const double *ref, const double *bound, size_t i)
{
    return !(fabs(got[i] - ref[i]) <= bound[i]) || !isfinite(got[i]);
}

/* Are the wrong elements exactly those in the last `k` rows (by_cols = 0) or columns? */
static size_t tail_width(const double *got, const double *ref, const double *bound, size_t rows, size_t cols,
                         int by_cols)
{
    size_t outer = by_cols ? cols : rows, inner = by_cols ? rows : cols, k = 0;
    /* the widest band of trailing lines in which every element is wrong */
    for (size_t line = outer; line-- > 0;) {
        int all = 1;
        for (size_t t = 0; t < inner && all; t++) {
            size_t i = by_cols ? t * cols + line : line * cols + t;
            all = is_bad(got, ref, bound, i);
        }
        if (!all) break;
        k++;
    }
    if (k == 0 || k == outer) return 0;
    /* ... and everything before the band is right */
    for (size_t line = 0; line < outer - k; line++)
        for (size_t t = 0; t < inner; t++) {
            size_t i = by_cols ? t * cols + line : line * cols + t;
            if (is_bad(got, ref, bound, i)) return 0;
        }
    return k;
}

/* On a GPU an output left as it was, or all zeros, is as often a launch that never started: a grid
 * of 0 blocks at a small size (n / 4 / 512 blocks at n < 4), over 1024 threads a block, or more
 * shared memory than a block may have. Such a launch fails at once and silently. */
static const char launch_hint[] = "; on the GPU, also a launch that could not start (a grid of 0 blocks at this "
                                  "size, over 1024 threads a block, too much shared memory): cudaGetLastError() "
                                  "after the launch says";

void diagnose_output(const double *got, const double *ref, const double *bound, size_t rows, size_t cols,
                     double poison, int gpu, char *out, size_t len)
{
    size_t n = rows * cols, poisoned = 0, nonfinite = 0, zeros = 0, bad = count_bad(got, ref, bound, n, NULL);
    out[0] = '\0';
    if (bad == 0) return;
    for (size_t i = 0; i < n; i++) {
        poisoned += same_bits(got[i], poison);
        nonfinite += !isfinite(got[i]);
        zeros += got[i] == 0.0;
    }
    if (poisoned == n) {
        snprintf(out, len, "every element still holds the value the grader put there (%g): nothing was written, or "
                           "the output was read before it was written (y += ... without setting y first)%s", poison,
                 gpu ? launch_hint : "");
        return;
    }
    if (poisoned > 0) {
        snprintf(out, len, "%zu of %zu elements were never written", poisoned, n);
        return;
    }
    if (nonfinite > 0) {
        snprintf(out, len, "%zu elements are NaN or Inf: an uninitialised accumulator, or a read past the end of an "
                           "array or row (the grader fills the memory around each one with NaN)?", nonfinite);
        return;
    }
    if (zeros == n) {
        snprintf(out, len, "every element is zero: nothing was added up (a loop that never ran at this size?) or the "
                           "result was never stored%s", gpu ? launch_hint : "");
        return;
    }
    if (n < 4) return; /* too few elements for a pattern to mean anything */
    /* a constant factor: got = c * ref for one c != 1 across the bad elements */
    double c = NAN, worst = 0;
    int constant = 1, used = 0;
    for (size_t i = 0; i < n; i++) {
        if (fabs(ref[i]) < 1e-3) continue;
        double r = got[i] / ref[i];
        worst = fmax(worst, fabs(r - 1));
        if (isnan(c)) c = r;
        else constant &= fabs(r - c) <= 1e-9 * fabs(c);
        used++;
    }
    if (worst < 1e-4) {
        snprintf(out, len, "the results are close but not within the double-precision bound (relative error up "
                           "to %.1e): float arithmetic somewhere?", worst);
        return;
    }
    if (constant && used >= 4 && fabs(c - 1) > 1e-6) {
        snprintf(out, len, "every element is off by the same factor %.6g: a scale applied twice or a count wrong?", c);
        return;
    }
    size_t kc = tail_width(got, ref, bound, rows, cols, 1), kr = tail_width(got, ref, bound, rows, cols, 0);
    if (kc && cols > 1)
        snprintf(out, len, "only the last %zu column%s of %zu %s wrong: check the remainder/edge handling", kc,
                 kc > 1 ? "s" : "", cols, kc > 1 ? "are" : "is");
    else if (kr && rows > 1)
        snprintf(out, len, "only the last %zu row%s of %zu %s wrong: check the remainder/edge handling", kr,
                 kr > 1 ? "s" : "", rows, kr > 1 ? "are" : "is");
}

static int dim(lab_shape s, int d) { return d == 0 ? s.m : d == 1 ? s.n : s.k; }

void diagnose_sizes(const lab_case *cases, const int *ok, int n, char *out, size_t len)
{
    static const char *names[] = {"m", "n", "k"};
    static const int divisors[] = {32, 16, 8, 4, 2};
    out[0] = '\0';
    int failed = 0, passed = 0, has_one_fail = 1;
    for (int i = 0; i < n; i++) {
        failed += !ok[i];
        passed += ok[i];
        int one = cases[i].s.m == 1 || cases[i].s.n == 1;
        if (!ok[i] && !one) has_one_fail = 0;
    }
    if (failed == 0 || passed == 0) return;
    if (has_one_fail) {
        snprintf(out, len, "fails only on shapes with a dimension of 1 (1 x n or m x 1)");
        return;
    }
    /* right on every square shape, wrong only where the dimensions differ: two of them mixed up */
    int square_ok = 0, square_bad = 0;
    for (int i = 0; i < n; i++) {
        lab_shape s = cases[i].s;
        if (s.m == s.n && (s.k == 0 || s.k == s.m)) square_ok += ok[i], square_bad += !ok[i];
    }
    int square_only = square_ok >= 2 && square_bad == 0;
    /* smallest divisor d such that a dimension explains every failure: fails iff dim % d != 0 */
    for (int d = 0; d < 3; d++)
        for (int v = (int)(sizeof divisors / sizeof divisors[0]) - 1; v >= 0; v--) {
            int q = divisors[v], explains = 1, any = 0;
            for (int i = 0; i < n && explains; i++) {
                if (dim(cases[i].s, d) == 0) { explains = 0; break; }
                int off = dim(cases[i].s, d) % q != 0;
                explains = off == !ok[i];
                any |= off;
            }
            if (explains && any) {
                snprintf(out, len, "fails exactly when %s is not a multiple of %d: check the remainder loop",
                         names[d], q);
                return;
            }
        }
    if (square_only)
        snprintf(out, len, "right on every square shape, wrong where the dimensions differ: an index or a loop "
                           "bound uses the wrong dimension (the length of a row, its leading dimension, is its "
                           "number of columns)");
}
