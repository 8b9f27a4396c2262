/* entry_points.h - included at the end of a planted lab-10 submission that defines
 * `static void sc(n, in, out, work)`: every stage is built on it. */
#define STAGE(name) \
    extern "C" void scan_##name(int n, const int *in, int *out, int *work) { sc(n, in, out, work); }
STAGE(hillis_steele)
STAGE(blelloch)
STAGE(warp)
STAGE(multiblock)
STAGE(lookback)
