/* expect: too-slow in blocked
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * A stage skipped: `blocked` runs stage 1's i-k-j loop, no blocks at all (the student who found
 * i-k-j already fast). Right, and fast while B sits in the last-level cache; at the judged shape B
 * is twice that cache, so i-k-j reads all of B from memory again for every row of A. */
#include "planted/common.h"

#define PLANT_STAGES "blocked"
#define mm ikj
#include "planted/entry_points.h"
