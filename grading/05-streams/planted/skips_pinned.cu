/* expect: too-slow in pinned
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * A stage skipped: `pinned` runs stage 1's code, the host arrays left pageable: every copy is
 * staged by the driver through its own pinned buffer. Right at every size; 14-18% of the ideal on
 * an H100, where page-locked arrays copied straight reach 46-50%. */
#define OWN_PINNED
#include "planted/common.h"

extern "C" void *pinned_create(int n, const float *x, float *y, const float *c) { return setup(n, 1, 0, x, y, c, 0); }
extern "C" void pinned_run(void *p) { piece((plant *)p, 0, ((plant *)p)->n, 0), cudaDeviceSynchronize(); }
extern "C" void pinned_destroy(void *p) { teardown((plant *)p, 0); }
