/* expect: technique in warp
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * A stage skipped: `warp` runs stage 1's code, Hillis-Steele steps in shared memory over tiles of
 * 1024 (planted/base.h as it stands: right at every size). It has no warp shuffle, which is what
 * the stage teaches. */
#include "planted/base.h"
#include "planted/entry_points.h"
