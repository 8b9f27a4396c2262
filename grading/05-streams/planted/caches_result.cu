/* expect: wrong in pinned
 * threats: 4, 26 (rows of ../shared/GRADER_THREATS.md)
 * Computes y once, in create, and afterwards only copies that result back: right for the inputs
 * create saw, and three times faster, but x is new in every timed call. */
#define OWN_PINNED
#include "planted/common.h"

extern "C" void *pinned_create(int n, const float *x, float *y, const float *c)
{
    plant *p = setup(n, 1, 0, x, y, c, 1);
    piece(p, 0, n, 0);
    cudaDeviceSynchronize();
    return p;
}
extern "C" void pinned_run(void *q)
{
    plant *p = (plant *)q;
    cudaMemcpy(p->y, p->dy, (size_t)p->n * 4, cudaMemcpyDeviceToHost);
}
extern "C" void pinned_destroy(void *p) { teardown((plant *)p, 1); }
