/* expect: wrong
 * threats: 24 (rows of ../shared/GRADER_THREATS.md)
 * Clamps each tap's pixel to the nearest edge of the image ("replicate" padding) instead of taking
 * it as 0: every output at least r pixels from the edges is right, the frame of r rows and
 * columns around them wrong. Only a check of every element, the edges included, sees it; at
 * 1 x 1 all K^2 taps land on the one pixel. */
#define PLANT_CLAMPED
#include "planted/base.h"

#include "planted/entry_points.h"
