/* expect: wrong
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * An inclusive scan where the exclusive one is asked for: out[i] includes in[i]. Every size but
 * an unlucky n = 1 (in[0] = 0) shows it. */
#define PLANT_INCLUSIVE
#include "planted/base.h"
#include "planted/entry_points.h"
