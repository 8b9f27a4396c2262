/* expect: technique in blelloch,warp,lookback
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * Stages skipped: every stage runs the same code (planted/base.h as it stands: tiles of 1024
 * scanned by Hillis-Steele steps in shared memory, their totals scanned, the offsets added; right
 * at every size, and fast enough for every stage: the one-block stages ask for 0.1-0.15% of the
 * ceiling, `lookback` for 10%). `blelloch` has no work-efficient tree (its threads work on
 * neighbouring elements, never on elements 2, 4, 8 ... apart); `warp` has no warp shuffle;
 * `lookback` reads no other block's published total while it runs, which is what a single-pass
 * scan is, and at the judged size its speed would not tell (stage 4's code reads 67% of the
 * ceiling on an H100, the reference's look-back 77%). */
#include "planted/base.h"
#include "planted/entry_points.h"
