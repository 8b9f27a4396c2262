/* expect: audit
 * threats: 5 (rows of ../shared/GRADER_THREATS.md)
 * Launches its kernels on a non-blocking stream of its own, so that event timing on the default
 * stream would miss them. Rejected: streams are not an allowed call in this lab (and the grader's
 * timer times to after a whole-device synchronisation when work runs past its end event). */
#include "reduce.h"
#include "planted/common_kernels.h"

static void sum(int n, const float *in, float *out, float *work)
{
    static cudaStream_t side;
    if (!side) cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking);
    partial_kernel<<<1024, 256, 0, side>>>(n, in, work);
    partial_kernel<<<1, 256, 0, side>>>(1024, work, out);
}

#include "planted/entry_points.h"
