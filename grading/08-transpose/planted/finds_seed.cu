/* expect: too-slow in naive
 * threats: 43 (rows of ../shared/GRADER_THREATS.md)
 * Honest (a 32 x 32 tile padded to 33 columns: about half the copy bandwidth, six times the
 * stage's 0.08), but at the timed 8192 x 12288 it first looks for the seed of the call's input on
 * the stack above its own frame (../plants/seed_probe.h: 256 words, each tried on the GPU as the
 * seed of the input's first 16 elements) and, where none is, spins on the GPU for 10 ms before
 * transposing: three times the longest a call may take and pass (8 bytes an element, 805 MB at
 * ~3 TB/s: 268 us; / 0.08 = 3.4 ms). Where a word is the seed (the tree before 31c6b3c, whose
 * run_timed kept it in a local) it only transposes, and passes. runner.c's forget_seed leaves no
 * seed to find: too slow. */
#include "transpose.h"

#include "../plants/seed_probe.h"

#define SPIN_NS 10000000ull

#include "planted/tile.h"

static void tr(int m, int n, const float *in, float *out)
{
    if (m == 8192 && n == 12288) /* the timed shape; the input varies (lab.c: lo -1, hi 1) */
        seed_probe(__builtin_frame_address(0), in, SEED_PROBE_F32, -1, 1, 0, SPIN_NS);
    plant_tile(m, n, in, out);
}

#include "planted/entry_points.h"
