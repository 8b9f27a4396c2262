/* check11.cpp - lab 11 on the CPU (scripts/emu/run.sh): every stage of SRC on small shapes at every
 * odd K from 3 to 15, twice each with a fresh image and filter in [-1, 1) (as the grader's trials
 * are), against the convolution in double within lab.c's bound_of (copied); the 4096 floats either
 * side of the output checked, and the input compared with a copy after each call. */
#include "emu.h"
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include SRC
typedef void (*fn)(int, int, int, const float *, const float *, float *);
static double bound_of(int K, double mag) { return (K * K + 1) * 0x1p-24 * mag + K * K * 0x1p-126; }
static float uniform() { return (float)(-1 + 2 * (rand() / (RAND_MAX + 1.0))); }

/* Outputs of one call outside the bound; the worst passing error as a fraction of it into *worst. */
/* The first wrong element of a stage at a shape, where there is one. */
struct first_wrong {
    int i, j;
    double got, want;
};
static long wrong(int m, int n, int K, const float *in, const float *filter, const float *out, double *worst,
                  first_wrong *first)
{
    long bad = 0;
    int r = K / 2;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            double acc = 0, mag = 0;
            for (int a = 0; a < K; a++)
                for (int b = 0; b < K; b++) {
                    int row = i + a - r, col = j + b - r;
                    if (row < 0 || row >= m || col < 0 || col >= n) continue;
                    double p = (double)filter[a * K + b] * in[(size_t)row * n + col];
                    acc += p, mag += fabs(p);
                }
            double e = fabs(out[(size_t)i * n + j] - acc), b = bound_of(K, mag);
            if (!(e <= b)) {
                if (!bad++) *first = {i, j, out[(size_t)i * n + j], acc};
            } else if (e / b > *worst)
                *worst = e / b;
        }
    return bad;
}

int main()
{
    const char *names[] = {"naive", "constant", "tiled", "coarsened"};
    fn f[] = {conv_naive, conv_constant, conv_tiled, conv_coarsened};
    /* m, n, K: one pixel under the smallest and largest filter, a row, a column, shapes off every
     * tile (33 x 31, 37 x 100), an image smaller than its filter, rows a multiple of 4 (the vector
     * paths) and not, every K at least once */
    int shapes[][3] = {{1, 1, 3},  {1, 1, 15},   {1, 70, 5},   {70, 1, 7},  {33, 31, 9},  {37, 100, 11},
                       {7, 7, 13}, {20, 132, 7}, {9, 129, 15}, {40, 36, 3}, {3, 260, 5},  {34, 40, 13}};
    int nshapes = sizeof shapes / sizeof shapes[0], fails = 0;
    double worst = 0;
    if (!emu_stage_known(names, 4)) return 2;
    emu_begin();
    for (int st = 0; st < 4; st++)
        for (int s = 0; s < nshapes; s++) {
            if (!emu_stage_wanted(names[st])) continue;
            int m = shapes[s][0], n = shapes[s][1], K = shapes[s][2];
            char size[64];
            snprintf(size, sizeof size, "m=%d n=%d K=%d", m, n, K);
            if (!emu_size_wanted(size)) continue;
            size_t N = (size_t)m * n, G = 4096;
            float *in = (float *)aligned_alloc(64, (N + 2 * G) * 4 + 64),
                  *out = (float *)aligned_alloc(64, (N + 2 * G) * 4 + 64), *keep = (float *)malloc(N * 4 + 4),
                  filter[CONV_MAX_K * CONV_MAX_K];
            long bad = 0, oob = 0, changed = 0;
            first_wrong first = {0, 0, 0, 0};
            for (int trial = 0; trial < 2; trial++) {
                for (size_t k = 0; k < N + 2 * G; k++) in[k] = NAN, out[k] = -12345.0f;
                for (size_t k = 0; k < N; k++) keep[k] = in[G + k] = uniform();
                for (int k = 0; k < K * K; k++) filter[k] = uniform();
                emu_at(names[st], size);
                f[st](m, n, K, in + G, filter, out + G);
                long b = wrong(m, n, K, keep, filter, out + G, &worst, &first);
                bad += b;
                for (size_t k = 0; k < G; k++) oob += out[k] != -12345.0f || out[G + N + k] != -12345.0f;
                for (size_t k = 0; k < N; k++) changed += memcmp(&keep[k], &in[G + k], 4) != 0;
            }
            if (bad || oob || changed) {
                fails++;
                printf("%s %s: %ld wrong, %ld outside, %ld inputs changed\n", names[st], size, bad, oob,
                       changed);
                if (bad)
                    printf("  first: out[%d][%d] = %.9g%s, expected %.9g\n", first.i, first.j, first.got,
                           EMU_UNWRITTEN(first.got), first.want);
            }
            free(in), free(out), free(keep);
        }
    if (emu_nothing_checked()) return 2;
    printf("%s: %d failures; worst error of the passing outputs %.3f of the bound\n", SRC, fails, worst);
    return fails != 0;
}
