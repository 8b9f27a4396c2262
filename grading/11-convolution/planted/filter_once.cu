/* expect: wrong
 * threats: 4 (rows of ../shared/GRADER_THREATS.md)
 * Copies the filter into constant memory on the first call of each K only, to save the copy on
 * later calls: every later call with that K convolves with a filter that is no longer the one it
 * was given. The grader draws a new filter (and image) for each call of a correctness case, so the
 * second call of the first case already shows it. */
#include "conv.h"

#include <cuda_runtime.h>

#define PLANT_CORRECT /* plant_correct, one thread an output */
#include "planted/common_kernels.h"

static void cv(int m, int n, int K, const float *in, const float *filter, float *out)
{
    static int copied_k = 0;
    if (K != copied_k) plant_load_filter(K, filter), copied_k = K;
    plant_correct<<<plant_grid(m, n), plant_block>>>(m, n, K, in, out);
}

#include "planted/entry_points.h"
