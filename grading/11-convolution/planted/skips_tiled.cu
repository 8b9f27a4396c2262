/* expect: technique in tiled
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * A stage skipped: `tiled` runs stage 2's code, one thread an output reading its inputs from
 * global memory (through L1) and the filter from __constant__ memory (planted/base.h as it
 * stands: right at every size). It stages nothing in shared memory, which is what the stage
 * teaches. */
#include "planted/base.h"
#include "planted/entry_points.h"
