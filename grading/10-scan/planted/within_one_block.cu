/* expect: wrong in multiblock,lookback
 * threats: 23 (rows of ../shared/GRADER_THREATS.md)
 * A scan correct only within one block: every tile of 1024 scanned on its own and no offsets added,
 * so every n up to 1024 is right and everything past the first tile is short by the tiles before.
 * Cases of many tiles show it. */
#define PLANT_WITHIN_ONE_TILE
#include "planted/base.h"
#include "planted/entry_points.h"
