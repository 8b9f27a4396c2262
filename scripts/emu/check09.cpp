/* check09.cpp - lab 09 on the CPU (scripts/emu/run.sh): every stage of SRC on small shapes against the
 * softmax in double, within lab.c's bound_of (copied), the 1024 floats either side of the output checked. */
#include "emu.h"
#include <cstdio>
#include <cstdlib>
#include SRC
typedef void (*fn)(int, int, const float *, float *);
static double bound_of(double y, double t, int n)
{
    return y * ((n + 2) * 0x1p-24 + (8 + 2 * fabs(t) + 2 * log(n)) * 0x1p-23) + 0x1p-126;
}
int main()
{
    const char *names[] = {"three_pass", "warp", "online", "registers"};
    fn f[] = {softmax_three_pass, softmax_warp, softmax_online, softmax_registers};
    int shapes[][2] = {{1, 1},    {1000, 1}, {1, 1000}, {3, 31},   {5, 32},   {7, 33},  {64, 1000},
                       {3, 5000}, {300, 17}, {2, 4099}, {9, 1024}, {9, 1025}, {13, 512}, {37, 3},
                       {21, 7},   {11, 12},  {6, 16},   {5, 2048}, {4, 4096}, {2, 8192}, {3, 8193}};
    int fails = 0;
    double worst = 0;
    if (!emu_stage_known(names, 4)) return 2;
    emu_begin();
    for (int s = 0; s < (int)(sizeof shapes / sizeof *shapes); s++) { /* every shape listed */
        int m = shapes[s][0], n = shapes[s][1];
        size_t N = (size_t)m * n, G = 1024;
        float *in = (float *)aligned_alloc(64, (N + 2 * G) * 4 + 64),
              *out = (float *)aligned_alloc(64, (N + 2 * G) * 4 + 64);
        for (size_t k = 0; k < N + 2 * G; k++) in[k] = NAN;
        for (size_t k = 0; k < N; k++) in[G + k] = -30 + 120 * (rand() / (RAND_MAX + 1.0));
        for (int st = 0; st < 4; st++) {
            if (!emu_stage_wanted(names[st])) continue;
            for (size_t k = 0; k < N + 2 * G; k++) out[k] = -12345.0f;
            char size[64];
            snprintf(size, sizeof size, "m=%d n=%d", m, n);
            if (!emu_size_wanted(size)) continue;
            emu_at(names[st], size);
            f[st](m, n, in + G, out + G);
            long bad = 0, oob = 0;
            int fi = 0, fj = 0;
            double fgot = 0, fwant = 0;
            for (int i = 0; i < m; i++) {
                const float *x = in + G + (size_t)i * n;
                double mx = x[0], sum = 0;
                for (int j = 1; j < n; j++) mx = fmax(mx, x[j]);
                for (int j = 0; j < n; j++) sum += exp(x[j] - mx);
                for (int j = 0; j < n; j++) {
                    double t = x[j] - mx, y = exp(t) / sum, g = out[G + (size_t)i * n + j], b = bound_of(y, t, n);
                    if (!(fabs(g - y) <= b)) {
                        if (!bad++) fi = i, fj = j, fgot = g, fwant = y;
                    }
                    else if (fabs(g - y) / b > worst)
                        worst = fabs(g - y) / b;
                }
            }
            for (size_t k = 0; k < G; k++) oob += out[k] != -12345.0f || out[G + N + k] != -12345.0f;
            if (bad || oob) {
                fails++;
                printf("%s %s: %ld wrong, %ld outside\n", names[st], size, bad, oob);
                if (bad) printf("  first: out[%d][%d] = %.9g%s, expected %.9g\n", fi, fj, fgot, EMU_UNWRITTEN(fgot), fwant);
            }
        }
        free(in), free(out);
    }
    if (emu_nothing_checked()) return 2;
    printf("%s: %d failures; worst error of the passing outputs %.3f of the bound\n", SRC, fails, worst);
    return fails != 0;
}
