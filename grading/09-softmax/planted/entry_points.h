/* entry_points.h - included at the end of a planted lab-09 submission that defines
 * `static void sm(m, n, in, out)`: every stage is built on it. */
#define STAGE(name) \
    extern "C" void softmax_##name(int m, int n, const float *in, float *out) { sm(m, n, in, out); }
STAGE(three_pass)
STAGE(warp)
STAGE(online)
STAGE(registers)
