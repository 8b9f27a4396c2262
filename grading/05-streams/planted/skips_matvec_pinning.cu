/* expect: too-slow in matvec
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * A stage skipped: `matvec` pipelined over four streams as the stage asks, but from pageable memory
 * (stage 1's way: nothing registered). cudaMemcpyAsync from pageable memory is staged by the driver
 * through a pinned buffer of its own and does not overlap as it should: the copies run at a fraction
 * of the link's speed, far under the threshold. */
#define OWN_MATVEC
#include "planted/common.h"

extern "C" void *matvec_create(int m, int n, const double *A, const double *x, double *y)
{
    mv_plant *p = (mv_plant *)calloc(1, sizeof *p);
    p->m = m, p->n = n, p->A = A, p->x = x, p->y = y, p->nstreams = 4;
    cudaMalloc(&p->dA, (size_t)m * n * 8);
    cudaMalloc(&p->dx, (size_t)n * 8);
    cudaMalloc(&p->dy, (size_t)m * 8);
    for (int i = 0; i < 4; i++) cudaStreamCreateWithFlags(&p->st[i], cudaStreamNonBlocking);
    return p;
}
extern "C" void matvec_run(void *q)
{
    mv_plant *p = (mv_plant *)q;
    cudaMemcpy(p->dx, p->x, (size_t)p->n * 8, cudaMemcpyHostToDevice);
    cudaDeviceSynchronize(); /* from pageable memory, cudaMemcpy may return before x has landed */
    for (int j = 0; j < 8; j++) mv_rows(p, (size_t)p->m * j / 8, (size_t)p->m * (j + 1) / 8, p->st[j % 4]);
    cudaDeviceSynchronize();
}
extern "C" void matvec_destroy(void *q)
{
    mv_plant *p = (mv_plant *)q;
    for (int i = 0; i < 4; i++) cudaStreamDestroy(p->st[i]);
    cudaFree(p->dA), cudaFree(p->dx), cudaFree(p->dy);
    free(p);
}
