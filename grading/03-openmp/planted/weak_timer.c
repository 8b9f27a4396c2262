/* expect: audit
 * threats: 8 (rows of ../shared/GRADER_THREATS.md)
 * Defines omp_get_wtime and the runner's clock_gettime as weak symbols, hoping to slip past an
 * audit that looks only for strong ones and still replace the library's timers. */
#define _POSIX_C_SOURCE 200809L
#include <time.h>

#include "planted/common.h"
#include "parallel.h"

__attribute__((weak)) int clock_gettime(clockid_t c, struct timespec *t)
{
    (void)c;
    t->tv_sec = 0;
    t->tv_nsec = 0;
    return 0;
}
__attribute__((weak)) double omp_get_wtime(void) { return 0.0; }

static void mv(int m, int n, const double *A, const double *x, double *y) { par_matvec(m, n, A, x, y); }
static double dt(int n, const double *x, const double *y) { return par_dot(n, x, y); }
static void mm(int m, int n, int k, const double *A, const double *B, double *C) { par_matmul(m, n, k, A, B, C); }

#include "planted/entry_points.h"
