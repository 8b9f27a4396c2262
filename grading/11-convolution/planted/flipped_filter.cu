/* expect: wrong
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * A plain bug: the textbook's convolution, the filter flipped (tap (K-1-a, K-1-b) against pixel
 * (i+a-r, j+b-r)), where the lab asks for the ML convention, cross-correlation, which flips
 * nothing. The two agree only for a filter symmetric under the flip, which a random one never is,
 * and at 1 x 1, where only the centre tap counts and the flip leaves it in place. */
#define PLANT_FLIPPED
#include "planted/base.h"

#include "planted/entry_points.h"
