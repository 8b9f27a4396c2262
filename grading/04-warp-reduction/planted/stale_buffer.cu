/* expect: wrong
 * "Returns the stale buffer": sums properly on its first call only; later calls just re-run the
 * last step over the partial sums it hopes are still in `work` from before. The grader poisons
 * work and the output before every call, so the second call is wrong. */
#include "reduce.h"
#include "planted/common_kernels.h"

static void sum(int n, const float *in, float *out, float *work)
{
    static int calls;
    if (calls++ == 0) partial_kernel<<<1024, 256>>>(n, in, work);
    partial_kernel<<<1, 256>>>(1024, work, out);
}

#include "planted/entry_points.h"
