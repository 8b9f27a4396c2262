/* expect: audit
 * threats: 6 (rows of ../shared/GRADER_THREATS.md)
 * OpenMP threads are allowed in this lab, but not threads of its own: it starts a pthread that
 * would go on working after the call returns (pthread_create is not an allowed call). */
#include <pthread.h>

#include "planted/common.h"
#include "parallel.h"

static void *later(void *p) { return p; }
static void mv(int m, int n, const double *A, const double *x, double *y)
{
    pthread_t t;
    pthread_create(&t, NULL, later, NULL);
    par_matvec(m, n, A, x, y);
}
static double dt(int n, const double *x, const double *y) { return par_dot(n, x, y); }
static void mm(int m, int n, int k, const double *A, const double *B, double *C) { par_matmul(m, n, k, A, B, C); }

#include "planted/entry_points.h"
