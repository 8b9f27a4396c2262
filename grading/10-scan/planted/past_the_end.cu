/* expect: out-of-bounds
 * threats: 16 (rows of ../shared/GRADER_THREATS.md)
 * Every thread of the last tile writes its output, past n too, whenever n is not a multiple of
 * 1024. The device guard zones the grader puts around every buffer show it. */
#define PLANT_PAST_THE_END
#include "planted/base.h"
#include "planted/entry_points.h"
