/* expect: wrong in pipelined
 * threats: 23, 24 (rows of ../shared/GRADER_THREATS.md)
 * Chunks of n / chunks elements each: when chunks doesn't divide n the last n % chunks elements
 * are never computed (and when chunks > n, none are). */
#define OWN_PIPELINED
#include "planted/common.h"

extern "C" void *pipelined_create(int n, int chunks, int streams, const float *x, float *y, const float *c)
{
    return setup(n, chunks, streams, x, y, c, 1);
}
extern "C" void pipelined_run(void *q)
{
    plant *p = (plant *)q;
    size_t size = (size_t)(p->n / p->chunks);
    for (int j = 0; j < p->chunks; j++) piece(p, j * size, (j + 1) * size, p->st[j % p->nstreams]);
    cudaDeviceSynchronize();
}
extern "C" void pipelined_destroy(void *p) { teardown((plant *)p, 1); }
