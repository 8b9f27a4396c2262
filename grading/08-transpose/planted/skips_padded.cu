/* expect: technique in padded
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * A stage skipped: `padded` runs stage 2's code, a 32 x 32 tile unpadded, moved by 32 x 8 threads.
 * Right at every size, and fast: 56% of the copy on an H100 against `padded`'s 36%. Its column
 * reads put a warp's 32 lanes in one bank (an 8-way conflict at best, whatever the block's
 * shape), which is what the stage is there to remove. */
#include "transpose.h"

#define PLANT_PAD 0
#include "planted/tile.h"

static void tr(int m, int n, const float *in, float *out)
{
    plant_tile(m, n, in, out);
}

#include "planted/entry_points.h"
