/* expect: wrong
 * threats: 22 (rows of ../shared/GRADER_THREATS.md)
 * The tiled kernel with its __syncthreads() left out between loading the tile and reading it. The
 * tile is loaded from its last pixel back, so the rows each warp reads are those the other warps
 * load: a warp whose loads came back first reads pixels not yet stored, left there by the block
 * before it on the SM (or never written). Right only when the warps happen to keep in step. */
#define PLANT_TILED
#define PLANT_NO_SYNCTHREADS
#include "planted/base.h"

#include "planted/entry_points.h"
