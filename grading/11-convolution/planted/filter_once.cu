/* expect: wrong
 * threats: 4 (rows of ../shared/GRADER_THREATS.md)
 * Copies the filter into constant memory on the first call of each K only, to save the copy on
 * later calls: every later call with that K convolves with a filter that is no longer the one it
 * was given. The grader draws a new filter (and image) for each call of a correctness case, so the
 * second call of the first case already shows it. */
#define PLANT_FILTER_ONCE
#include "planted/base.h"

#include "planted/entry_points.h"
