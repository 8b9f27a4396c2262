/* expect: too-slow in three_pass
 * threats: 43 (rows of ../shared/GRADER_THREATS.md)
 * Honest (planted/common_kernels.h's warp a row: its maximum, the sum of exp(x - max), then each
 * output: 79% of the ceiling on an H100, as the reference's `warp`; the stage asks 0.20), but at the
 * timed 131072 x 512 it first looks for the seed of the call's input on the stack above its own
 * frame (../plants/seed_probe.h: 128 words, 1 KiB: 2 KiB ran past the top of the
 * stack here, each tried on the GPU as the seed of the input's first
 * four elements) and, where none is, spins on the GPU for 1.7 ms before computing: about twice the
 * longest a call may take and pass (8 bytes an element, 537 MB at ~3 TB/s: 179 us; / 0.20 =
 * 0.9 ms). Where a word is the seed (the tree before 31c6b3c, whose run_timed kept it in a local)
 * it only computes, and passes. runner.c's forget_seed leaves no seed to find: too slow. */
#include "softmax.h"
#include "planted/common_kernels.h"

#define SEED_PROBE_WORDS 128 /* 1 KiB: 2 KiB read past the top of the stack (a SIGSEGV) */
#include "../plants/seed_probe.h"

#define SPIN_NS 1700000ull

static void sm(int m, int n, const float *in, float *out)
{
    if (m == 131072 && n == 512) /* the timed shape; the input varies (lab.c: lo -30, hi 90) */
        seed_probe(__builtin_frame_address(0), in, SEED_PROBE_F32, -30, 90, 0, SPIN_NS);
    plant_rows<<<plant_blocks(m), 256>>>(m, n, in, out);
}

#include "planted/entry_points.h"
