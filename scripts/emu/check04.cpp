/* check04.cpp - lab 04 on the CPU (scripts/emu/run.sh): every stage of SRC on small shapes against
 * a reference in double, each output between guard zones of 1024 elements (the sums' work buffer
 * too), within the bounds the grader uses: exact for the vector add, n eps sum |x| for a sum in
 * float, n eps (|A||x|)_i for a row in double. */
#include "emu.h"
#include "guards.h"
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include SRC
typedef void (*sum_fn)(int, const float *, float *, float *);
typedef void (*mv_fn)(int, int, const double *, const double *, double *);
static double uniform() { return -1 + 2 * (rand() / (RAND_MAX + 1.0)); }
int main()
{
    const char *names[] = {"vector_add", "interleaved", "strided", "sequential", "shuffle",
                           "vectorized", "mv_thread",   "mv_warp", "mv_block"};
    sum_fn sums[] = {reduce_interleaved, reduce_strided, reduce_sequential, reduce_shuffle, reduce_vectorized};
    mv_fn mvs[] = {matvec_thread, matvec_warp, matvec_block};
    int sizes[] = {1, 257, 1025, 2, 31, 32, 33, 255, 256, 1000, 1023, 4097, 65537, 100003};
    int shapes[][2] = {{1, 1}, {17, 1000}, {2, 3}, {3, 5}, {1000, 17}, {33, 33}, {64, 4099}, {5, 100000}};
    /* EMU_QUICK=1 (scripts/emu/all.sh, for planted files): the first three of each, the edges; a
     * kernel of 1024 blocks whatever n is takes seconds a call here */
    bool quick = getenv("EMU_QUICK") && *getenv("EMU_QUICK") == '1';
    int nsizes = quick ? 3 : (int)(sizeof sizes / sizeof *sizes), nshapes = quick ? 3 : (int)(sizeof shapes / sizeof *shapes);
    int fails = 0;
    if (!emu_stage_known(names, 9)) return 2;
    emu_begin();
    char size[64];
    for (int s = 0; s < nsizes; s++) { /* the vector add and the sums */
        int n = sizes[s];
        size_t work_n = n > 1024 ? (size_t)n : 1024;
        float *a = guarded<float>(n, NAN), *b = guarded<float>(n, NAN);
        double sum = 0, mag = 0;
        for (int i = 0; i < n; i++) a[i] = (float)uniform(), b[i] = (float)uniform(), sum += a[i], mag += fabs(a[i]);
        snprintf(size, sizeof size, "n=%d", n);
        if (!emu_size_wanted(size)) continue;
        if (emu_stage_wanted(names[0])) {
            float *c = guarded<float>(n, -12345.0f);
            emu_at(names[0], size);
            vector_add(n, a, b, c);
            long bad = 0, oob = outside(c, n, -12345.0f);
            int first = 0;
            for (int i = 0; i < n; i++)
                if (c[i] != a[i] + b[i] && !bad++) first = i;
            if (bad || oob) {
                fails++;
                printf("vector_add %s: %ld wrong, %ld outside\n", size, bad, oob);
                if (bad) printf("  first: c[%d] = %.9g%s, expected %.9g\n", first, c[first], EMU_UNWRITTEN(c[first]), a[first] + b[first]);
            }
            free(c - G);
        }
        for (int st = 0; st < 5; st++) {
            if (!emu_stage_wanted(names[1 + st])) continue;
            float *out = guarded<float>(1, -12345.0f), *work = guarded<float>(work_n, NAN);
            emu_at(names[1 + st], size);
            sums[st](n, a, out, work);
            double bound = (n + 2) * 0x1p-23 * mag + 0x1p-100;
            long oob = outside(out, 1, -12345.0f) + outside(work, work_n, (float)NAN);
            bool wrong = !(fabs(out[0] - sum) <= bound);
            if (wrong || oob) {
                fails++;
                printf("%s %s: %s, %ld outside%s\n", names[1 + st], size, wrong ? "wrong" : "right", oob,
                       oob ? " (out, or work past its max(n, 1024) floats)" : "");
                if (wrong) printf("  *out = %.9g%s, expected %.9g (|error| must be <= %.3g)\n", out[0], EMU_UNWRITTEN(out[0]), sum, bound);
            }
            free(out - G), free(work - G);
        }
        free(a - G), free(b - G);
    }
    for (int s = 0; s < nshapes; s++) { /* the matvecs */
        int m = shapes[s][0], n = shapes[s][1];
        double *A = guarded<double>((size_t)m * n, NAN), *x = guarded<double>(n, NAN);
        for (size_t k = 0; k < (size_t)m * n; k++) A[k] = uniform();
        for (int j = 0; j < n; j++) x[j] = uniform();
        snprintf(size, sizeof size, "m=%d n=%d", m, n);
        if (!emu_size_wanted(size)) continue;
        for (int st = 0; st < 3; st++) {
            if (!emu_stage_wanted(names[6 + st])) continue;
            double *y = guarded<double>(m, -12345.0);
            emu_at(names[6 + st], size);
            mvs[st](m, n, A, x, y);
            long bad = 0, oob = outside(y, m, -12345.0);
            int first = 0;
            double want = 0, bound = 0;
            for (int i = 0; i < m && bad < 1000000; i++) {
                long double r = 0, mag = 0;
                for (int j = 0; j < n; j++) r += (long double)A[(size_t)i * n + j] * x[j], mag += fabsl((long double)A[(size_t)i * n + j] * x[j]);
                double b = (n + 1) * 0x1p-52 * (double)mag + 0x1p-1000;
                if (!(fabs(y[i] - (double)r) <= b) && !bad++) first = i, want = (double)r, bound = b;
            }
            if (bad || oob) {
                fails++;
                printf("%s %s: %ld wrong, %ld outside\n", names[6 + st], size, bad, oob);
                if (bad) printf("  first: y[%d] = %.17g%s, expected %.17g (|error| must be <= %.3g)\n", first, y[first],
                                EMU_UNWRITTEN(y[first]), want, bound);
            }
            free(y - G);
        }
        free(A - G), free(x - G);
    }
    if (emu_nothing_checked()) return 2;
    printf("%s: %d failures\n", SRC, fails);
    return fails != 0;
}
