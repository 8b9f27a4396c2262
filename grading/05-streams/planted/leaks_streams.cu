/* expect: leak in pipelined
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * A correct, fast pipeline whose destroy frees the memory but forgets the streams: a course's
 * worth of these exhausts a shared GPU's resources. */
#define OWN_PIPELINED
#include "planted/common.h"

extern "C" void *pipelined_create(int n, int chunks, int streams, const float *x, float *y, const float *c)
{
    return setup(n, chunks, streams, x, y, c, 1);
}
extern "C" void pipelined_run(void *p) { pipeline((plant *)p); }
extern "C" void pipelined_destroy(void *q)
{
    plant *p = (plant *)q;
    p->nstreams = 0; /* the mistake: the streams are never destroyed */
    teardown(p, 1);
}
