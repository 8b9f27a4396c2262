/* expect: technique in online,registers
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * Stages skipped: every stage runs stage 2's code, a warp per row reading it three times (for the
 * maximum, for the sum, to write). Right at every shape, and where the row is served from L2 its
 * second and third reads cost little, so speed alone may not tell; `online` folds the first two
 * reads into one and `registers` reads the row once, which the passes in its PTX show. */
#include "softmax.h"
#include "planted/common_kernels.h"

static void sm(int m, int n, const float *in, float *out) { plant_rows<<<plant_blocks(m), 256>>>(m, n, in, out); }

#include "planted/entry_points.h"
