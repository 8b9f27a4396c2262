/* expect: technique in matvec
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * A stage skipped: `matvec` runs stage 2's way, A pinned and copied in whole, then one kernel, then
 * y copied out, all on one stream (asynchronous calls, but nothing beside them). Right at every
 * size, and near the ideal: the kernel is a few percent of the copy of A, which is the ideal. No
 * kernel ever runs while a copy is under way, which is what the stage teaches (overlap_matvec). */
#define OWN_MATVEC
#include "planted/common.h"

extern "C" void *matvec_create(int m, int n, const double *A, const double *x, double *y)
{
    return mv_setup(m, n, A, x, y, 1);
}
extern "C" void matvec_run(void *q)
{
    mv_plant *p = (mv_plant *)q;
    cudaMemcpyAsync(p->dx, p->x, (size_t)p->n * 8, cudaMemcpyHostToDevice, p->st[0]);
    mv_rows(p, 0, (size_t)p->m, p->st[0]);
    cudaStreamSynchronize(p->st[0]);
}
extern "C" void matvec_destroy(void *p) { mv_teardown((mv_plant *)p); }
