/* passes.h - the sanitizer plants' tree sums: `PASSES(name, kernel)` defines
 * `static void name(int n, const float *in, float *out, float *work)`, which runs `kernel` (256
 * threads a block, one partial a block) pass after pass until one block writes the sum to out, each
 * pass's partials after the ones it reads in work. */
#define PASSES(name, kernel)                                              \
    static void name(int n, const float *in, float *out, float *work)    \
    {                                                                     \
        for (;;) {                                                        \
            int blocks = (n + 255) / 256;                                 \
            float *dst = blocks == 1 ? out : work;                        \
            kernel<<<blocks, 256>>>(n, in, dst);                          \
            if (blocks == 1) return;                                      \
            in = dst, work = dst + blocks, n = blocks;                    \
        }                                                                 \
    }
