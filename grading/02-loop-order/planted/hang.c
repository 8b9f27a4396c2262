/* expect: timeout in register
 * threats: 17 (rows of ../shared/GRADER_THREATS.md)
 * Right on every small case, then never returns on the large timed case: the timed runner has
 * the same time limit as every other, and the grader kills it and goes on. (Only the register
 * stage: a hang costs the plant its whole time limit in each stage it is in.) */
#define PLANT_STAGES "register"
#include "planted/common.h"
#include "gemm.h"

static void mm(int m, int n, int k, const double *A, const double *B, double *C)
{
    ikj(m, n, k, A, B, C);
    if ((double)m * n * k >= 512.0 * 512 * 512)
        for (volatile int spin = 1; spin;) {
        }
}

#include "planted/entry_points.h"
