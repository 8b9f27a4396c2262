/* expect: too-slow in naive
 * threats: 43 (rows of ../shared/GRADER_THREATS.md)
 * Honest (base.h's tiled kernel: the block's input tile in shared memory, the filter in constant
 * memory; like the tiled stage's reference, about 17% of the ceiling, three times the stage's
 * 0.06), but at the timed 8192 x 8192, K = 7 it first looks for the seed of the call's image on the
 * stack above its own frame (../plants/seed_probe.h: 256 words, each tried on the GPU as the seed
 * of the image's first 16 pixels) and, where none is, spins on the GPU for 9 ms before convolving:
 * three times the longest a call may take and pass (the memory roof binds at K = 7: 4 (2 m n + K^2)
 * bytes, 537 MB at ~3 TB/s, 179 us; / 0.06 = 3.0 ms). Where a word is the seed (the tree before
 * 31c6b3c, whose run_timed kept it in a local) it only convolves, and passes. runner.c's
 * forget_seed leaves no seed to find: too slow. */
#define PLANT_TILED
#define cv honest_cv /* base.h's convolution, under another name */
#include "planted/base.h"
#undef cv
#include "../plants/seed_probe.h"

#define SPIN_NS 9000000ull

static void cv(int m, int n, int K, const float *in, const float *filter, float *out)
{
    if (m == 8192 && n == 8192 && K == 7) /* the timed shape; the image varies (lab.c: lo -1, hi 1) */
        seed_probe(__builtin_frame_address(0), in, SEED_PROBE_F32, -1, 1, 0, SPIN_NS);
    honest_cv(m, n, K, in, filter, out);
}

#include "planted/entry_points.h"
