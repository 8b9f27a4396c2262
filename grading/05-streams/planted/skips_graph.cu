/* expect: technique in graph
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * A stage skipped: `graph` runs stage 3's code, chunks over several streams issued call by call
 * (planted/common.h's plain stages as they stand: right at every size). On an H100 the reference's
 * pipelined streams reach 92-98% of the ideal, above `graph`'s 60%, so speed would pass it; it
 * never captures or launches a CUDA graph, which is what the stage teaches. */
#include "planted/common.h"
