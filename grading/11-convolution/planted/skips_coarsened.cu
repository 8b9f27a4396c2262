/* expect: technique in coarsened
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * A stage skipped: `coarsened` runs stage 3's code, the block's input tile and halo staged in
 * shared memory and one output a thread (planted/base.h's tiled kernel, right at every size). On an
 * H100 it reads 24-25% of its roof against `coarsened`'s 27%: too near to judge by speed alone. Its
 * loop carries one chain of multiply-adds; several outputs a thread are what the stage teaches. */
#define PLANT_TILED
#include "planted/base.h"
#include "planted/entry_points.h"
