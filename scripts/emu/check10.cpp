/* check10.cpp - lab 10 on the CPU (scripts/emu/run.sh): every stage of SRC on small and odd n, and
 * with EMU_LARGE=1 the many-block stages past 4096^2 too (a third level of tiles of 4096; minutes
 * here), against the exact scan; the
 * 1024 ints either side of out checked, work filled with garbage (-1) before every call. */
#include "emu.h"
#include <cstdio>
#include <cstdlib>
#include SRC
typedef void (*fn)(int, const int *, int *, int *);
int main()
{
    const char *names[] = {"hillis_steele", "blelloch", "warp", "multiblock", "lookback"};
    fn f[] = {scan_hillis_steele, scan_blelloch, scan_warp, scan_multiblock, scan_lookback};
    int sizes[] = {1, 2, 31, 32, 33, 1023, 1024, 1025, 2047, 2049, 4095, 4096, 4097, 12289, 100003, 4096 * 4096 + 5};
    int nsizes = sizeof sizes / sizeof *sizes - !getenv("EMU_LARGE"), fails = 0;
    if (!emu_stage_known(names, 5)) return 2;
    emu_begin();
    for (int s = 0; s < nsizes; s++) {
        int n = sizes[s];
        size_t G = 1024, W = n / 8 + 1024;
        int *in = (int *)aligned_alloc(64, (n + 2 * G) * 4 + 64), *out = (int *)aligned_alloc(64, (n + 2 * G) * 4 + 64);
        int *work = (int *)aligned_alloc(64, W * 4 + 64);
        for (int k = 0; k < n; k++) in[G + k] = rand() % 14 - 6;
        for (int st = 0; st < 5; st++) {
            if (st < 3 && n > 200000) continue; /* one block: slow here, and the same code as at 100003 */
            if (!emu_stage_wanted(names[st])) continue;
            for (size_t k = 0; k < n + 2 * G; k++) out[k] = -12345;
            for (size_t k = 0; k < W; k++) work[k] = -1;
            char size[64];
            snprintf(size, sizeof size, "n=%d", n);
            if (!emu_size_wanted(size)) continue;
            if (n > 200000) printf("%s n=%d: running (minutes here)\n", names[st], n); /* EMU_LARGE's sizes */
            emu_at(names[st], size);
            f[st](n, in + G, out + G, work);
            long bad = 0, oob = 0, sum = 0, fk = 0, fwant = 0;
            for (int k = 0; k < n; k++) {
                if (out[G + k] != sum && !bad++) fk = k, fwant = sum;
                sum += in[G + k];
            }
            for (size_t k = 0; k < G; k++) oob += out[k] != -12345 || out[G + n + k] != -12345;
            if (bad || oob) {
                fails++;
                printf("%s n=%d: %ld wrong, %ld outside\n", names[st], n, bad, oob);
                if (bad) printf("  first: out[%ld] = %d%s, expected %ld\n", fk, out[G + fk], EMU_UNWRITTEN(out[G + fk]), fwant);
            }
        }
        free(in), free(out), free(work);
    }
    if (emu_nothing_checked()) return 2;
    printf("%s: %d failures\n", SRC, fails);
    return fails != 0;
}
