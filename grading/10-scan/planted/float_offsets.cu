/* expect: wrong in multiblock,lookback
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * Adds each tile's offset in float: exact while prefixes stay under 2^24, rounded past it. The inputs'
 * mean is 1/2, so the timed 2^26 case passes 2^24 (about 2^25 at its end) and the grader's exact check fails them.
 * Its lookback stage (stage 4's code, no look-back) fails the technique check, so it is not timed; its
 * timed size is then checked as a correctness case, and is wrong there too.
 * emulate: large (right at make emulate's sizes, up to 100003; EMU_LARGE=1's 4096^2 + 5 shows it) */
#define PLANT_FLOAT
#include "planted/base.h"
#include "planted/entry_points.h"
