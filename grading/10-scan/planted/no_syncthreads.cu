/* expect: wrong
 * threats: 22 (rows of ../shared/GRADER_THREATS.md)
 * Hillis-Steele with its __syncthreads() left out: a step reads values other warps of the block
 * have not written yet. Right only for a tile of one warp, or when the 32 warps keep in step. */
#define PLANT_NO_SYNC
#include "planted/base.h"
#include "planted/entry_points.h"
