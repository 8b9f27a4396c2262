/* expect: out-of-bounds
 * threats: 16 (rows of ../shared/GRADER_THREATS.md)
 * A correct tiled kernel that tests its output's column against n but not its row against m: when
 * m is not a multiple of the tile's 8 rows, the last row of blocks writes up to 7 rows past the end
 * of out. The device guard zones the grader puts around every buffer show it, first at 1 x 1. */
#define PLANT_TILED
#define PLANT_ROW_UNTESTED
#include "planted/base.h"

#include "planted/entry_points.h"
