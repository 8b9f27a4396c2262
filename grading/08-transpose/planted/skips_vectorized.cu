/* expect: technique in vectorized
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * A stage skipped: `vectorized` runs stage 3's code, the padded 32 x 32 tile moved by 32 x 8
 * threads, four rows each. Right at every size, and on an H100 within a few points of a float4
 * kernel (90% of the copy against 96%), so its speed would pass; it has no vector load or store,
 * which is what the stage teaches. */
#include "transpose.h"

#include "planted/tile.h"

static void tr(int m, int n, const float *in, float *out)
{
    plant_tile(m, n, in, out);
}

#include "planted/entry_points.h"
