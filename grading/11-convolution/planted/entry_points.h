/* entry_points.h - included at the end of a planted lab-11 submission that defines
 * `static void cv(m, n, K, in, filter, out)` (base.h does): every stage is built on it, so every stage shows the
 * planted behaviour. */
#define STAGE(name) \
    extern "C" void conv_##name(int m, int n, int K, const float *in, const float *filter, float *out) \
    { \
        cv(m, n, K, in, filter, out); \
    }
STAGE(naive)
STAGE(constant)
STAGE(tiled)
STAGE(coarsened)
