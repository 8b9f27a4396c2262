/* check08.cpp - lab 08 on the CPU (scripts/emu/run.sh): every stage of SRC on small shapes, each
 * element compared with the input it must equal, the 1024 floats either side of the output checked. */
#include "emu.h"
#include <cstdio>
#include <cstdlib>
#include SRC
typedef void (*fn)(int, int, const float *, float *);
int main()
{
    const char *names[] = {"naive", "tiled", "padded", "swizzled", "vectorized"};
    fn f[] = {transpose_naive, transpose_tiled, transpose_padded, transpose_swizzled, transpose_vectorized};
    int shapes[][2] = {{1, 1},    {1, 1000}, {1000, 1}, {31, 33},   {33, 31},  {32, 32},
                       {36, 100}, {100, 36}, {67, 129}, {18, 4099}, {4097, 17}, {136, 200}, {128, 64}};
    int fails = 0;
    if (!emu_stage_known(names, 5)) return 2;
    emu_begin();
    for (int s = 0; s < (int)(sizeof shapes / sizeof *shapes); s++) { /* every shape listed */
        int m = shapes[s][0], n = shapes[s][1];
        size_t N = (size_t)m * n, G = 1024;
        float *in = (float *)aligned_alloc(64, (N + 2 * G) * 4 + 64),
              *out = (float *)aligned_alloc(64, (N + 2 * G) * 4 + 64);
        for (size_t k = 0; k < N + 2 * G; k++) in[k] = NAN;
        for (size_t k = 0; k < N; k++) in[G + k] = (float)(rand() % 100000) / 7.0f;
        for (int st = 0; st < 5; st++) {
            if (!emu_stage_wanted(names[st])) continue;
            for (size_t k = 0; k < N + 2 * G; k++) out[k] = -12345.0f;
            char size[64];
            snprintf(size, sizeof size, "m=%d n=%d", m, n);
            if (!emu_size_wanted(size)) continue;
            emu_at(names[st], size);
            f[st](m, n, in + G, out + G);
            long bad = 0, oob = 0;
            int fi = 0, fj = 0; /* the first wrong element: out[j][i], which must be in[i][j] */
            for (int i = 0; i < m; i++)
                for (int j = 0; j < n; j++)
                    if (out[G + (size_t)j * m + i] != in[G + (size_t)i * n + j] && !bad++) fi = i, fj = j;
            for (size_t k = 0; k < G; k++) oob += out[k] != -12345.0f || out[G + N + k] != -12345.0f;
            if (bad || oob) {
                fails++;
                printf("%s %s: %ld wrong, %ld outside\n", names[st], size, bad, oob);
                if (bad)
                    printf("  first: out[%d][%d] (of the %d x %d output) = %g%s, expected %g (in[%d][%d])\n", fj, fi, n, m,
                           out[G + (size_t)fj * m + fi], EMU_UNWRITTEN(out[G + (size_t)fj * m + fi]),
                           in[G + (size_t)fi * n + fj], fi, fj);
            }
        }
        free(in), free(out);
    }
    if (emu_nothing_checked()) return 2;
    printf("%s: %d failures\n", SRC, fails);
    return fails != 0;
}
