/* entry_points.h - included at the end of a planted lab-08 submission that defines
 * `static void tr(m, n, in, out)`: every stage is built on it. */
#define STAGE(name) \
    extern "C" void transpose_##name(int m, int n, const float *in, float *out) { tr(m, n, in, out); }
STAGE(naive)
STAGE(tiled)
STAGE(padded)
STAGE(swizzled)
STAGE(vectorized)
