/* expect: audit
 * threats: 31 (rows of ../shared/GRADER_THREATS.md)
 * Picks another GPU and raises a device-wide limit from create: settings that outlive the call
 * and the student's process, on a GPU other people's jobs share. The audit allows neither. */
#define OWN_PAGEABLE
#include "planted/common.h"

extern "C" void *pageable_create(int n, const float *x, float *y, const float *c)
{
    cudaSetDevice(1);
    cudaDeviceSetLimit(cudaLimitMallocHeapSize, (size_t)1 << 30);
    return setup(n, 1, 0, x, y, c, 0);
}
extern "C" void pageable_run(void *p) { piece((plant *)p, 0, ((plant *)p)->n, 0), cudaDeviceSynchronize(); }
extern "C" void pageable_destroy(void *p) { teardown((plant *)p, 0); }
