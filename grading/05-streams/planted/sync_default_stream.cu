/* expect: too-slow in pipelined
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * A pipeline in name only: chunk by chunk, but every copy is a synchronous cudaMemcpy on the
 * default stream, so nothing overlaps and the call takes the serial time, not the ideal. */
#define OWN_PIPELINED
#include "planted/common.h"

extern "C" void *pipelined_create(int n, int chunks, int streams, const float *x, float *y, const float *c)
{
    return setup(n, chunks, streams, x, y, c, 1);
}

extern "C" void pipelined_run(void *q)
{
    plant *p = (plant *)q;
    for (int j = 0; j < p->chunks; j++) {
        size_t lo = (size_t)p->n * j / p->chunks, hi = (size_t)p->n * (j + 1) / p->chunks;
        if (hi == lo) continue;
        cudaMemcpy(p->dx + lo, p->x + lo, (hi - lo) * 4, cudaMemcpyHostToDevice);
        horner<<<(unsigned)((hi - lo + 255) / 256), 256>>>((int)(hi - lo), p->dx + lo, p->dy + lo);
        cudaMemcpy(p->y + lo, p->dy + lo, (hi - lo) * 4, cudaMemcpyDeviceToHost);
    }
}

extern "C" void pipelined_destroy(void *p) { teardown((plant *)p, 1); }
