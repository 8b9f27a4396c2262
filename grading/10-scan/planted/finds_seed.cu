/* expect: too-slow in hillis_steele
 * threats: 43 (rows of ../shared/GRADER_THREATS.md)
 * Honest (base.h's scan, many blocks: far above the one-block stage's 0.001), but at that stage's
 * timed 2^22 ints it first looks for the seed of the call's input on the stack above its own frame
 * (../plants/seed_probe.h: 128 words, 1 KiB: 2 KiB ran past the top of the
 * stack here, each tried on the GPU as the seed of the input's first 16
 * ints) and, where none is, spins on the GPU for 34 ms before scanning: three times the longest a
 * call may take and pass (8 bytes an int, 33.5 MB at ~3 TB/s: 11.2 us; / 0.001 = 11.2 ms). Where a
 * word is the seed (the tree before 31c6b3c, whose run_timed kept it in a local) it only scans,
 * and passes. runner.c's forget_seed leaves no seed to find: too slow. */
#define sc honest_sc /* base.h's scan, under another name (it calls itself by it) */
#include "planted/base.h"
#undef sc
#define SEED_PROBE_WORDS 128 /* 1 KiB: 2 KiB read past the top of the stack (a SIGSEGV) */
#include "../plants/seed_probe.h"

#define SPIN_NS 34000000ull

static void sc(int n, const int *in, int *out, int *work)
{
    if (n == 1 << 22) /* the one-block stages' timed size; the input varies (lab.c: lo -6, hi 7, quantum 1) */
        seed_probe(__builtin_frame_address(0), in, SEED_PROBE_I32, -6, 7, 1, SPIN_NS);
    honest_sc(n, in, out, work);
}

#include "planted/entry_points.h"
