/* expect: wrong in multiblock,lookback
 * threats: 23 (rows of ../shared/GRADER_THREATS.md)
 * Scan-then-propagate with exactly two levels: the tiles' totals are scanned by one block of 1024,
 * so the offsets are right up to 1024 tiles (2^20 ints) and wrong past them. The 2^24 + 1 case and the
 * timed 2^26 show it.
 * emulate: large (right at make emulate's sizes, up to 100003; EMU_LARGE=1's 4096^2 + 5 shows it) */
#define PLANT_TWO_LEVELS
#include "planted/base.h"
#include "planted/entry_points.h"
