/* expect: audit
 * threats: 8 (rows of ../shared/GRADER_THREATS.md)
 * Defines the runner's timer, clock_gettime, under an innocent C name (an assembler label gives
 * the symbol its real name), so that every timed call would seem to take no time. The audit
 * reads the object's symbols, not the source's names. */
#define _POSIX_C_SOURCE 200809L
#include <time.h>

#include "planted/common.h"
#include "gemm.h"

int fast_timer(clockid_t c, struct timespec *t) __asm__("clock_gettime");
int fast_timer(clockid_t c, struct timespec *t)
{
    (void)c;
    t->tv_sec = 0;
    t->tv_nsec = 0;
    return 0;
}

static void mm(int m, int n, int k, const double *A, const double *B, double *C) { ikj(m, n, k, A, B, C); }

#include "planted/entry_points.h"
