/* expect: technique in warp,lookback
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * Stages skipped: every stage runs stage 4's code (planted/base.h as it stands: tiles of 1024
 * scanned by Hillis-Steele steps in shared memory, their totals scanned, the offsets added; right
 * at every size). `warp` has no warp shuffle, which is what that stage teaches; `lookback` reads no
 * other block's published total while it runs, which is what a single-pass scan is, and at the
 * judged size its speed would not tell (stage 4's code reads 58-67% of the ceiling on an H200,
 * the reference's look-back 64-68%). */
#include "planted/base.h"
#include "planted/entry_points.h"
