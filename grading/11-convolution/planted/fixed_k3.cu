/* expect: wrong
 * threats: 23 (rows of ../shared/GRADER_THREATS.md)
 * Written and tested for a 3 x 3 filter only: r = 1 and the 3 x 3 loops are fixed, K is ignored.
 * Right at 1 x 1 and 64 x 128 with K = 3, and wherever the random shape draws K = 3; wrong for
 * every other K, the timed K = 7 included (its taps beyond the centre 3 x 3 are never summed, and
 * the taps it does sum are read with the wrong row length of the filter). */
#define PLANT_FIXED_K3
#include "planted/base.h"

#include "planted/entry_points.h"
