/* expect: wrong in matvec
 * threats: 36 (rows of ../shared/GRADER_THREATS.md)
 * Spinners beside a serial kernel (as fast_beside.c) that notice the probe of shared work: before
 * each call every thread reads which CPU it is on (the number the kernel keeps for `rdtscp`: no
 * call at all, so neither the audit nor a filter sees it), and where all of them share one CPU (the probe puts them there) thread 0 answers at once
 * without computing, and the spinners stop, so the call costs almost no CPU time and the probe
 * reads the work as shared. The grader checks the probe's answer as it checks a timed call's
 * (session.c, run_starved): wrong. (On a 2-CPU VM the kernel often leaves both threads of a timed
 * call on one CPU for the 2 ms the plant looks, so it is as often caught at a timed call: wrong too.) */
#include <omp.h>

#include "planted/common.h"
#include "parallel.h"

#define PLANT_STAGES "matvec"

/* The CPU this thread is on (Linux keeps its number in TSC_AUX, which rdtscp reads), or -1 where the
 * thread was on more than one over about 2 ms (the kernel had not yet spread the team out). */
static int which_cpu(void)
{
    unsigned lo, hi, aux, first = ~0u;
    unsigned long long t0 = 0;
    for (;;) {
        __asm__ volatile("rdtscp" : "=a"(lo), "=d"(hi), "=c"(aux));
        unsigned long long t = (unsigned long long)hi << 32 | lo;
        if (first == ~0u) first = aux & 0xfff, t0 = t;
        if ((aux & 0xfff) != first) return -1;
        if (t - t0 > 4000000) return (int)first; /* about 2 ms at 2 GHz */
    }
}

static void mv(int m, int n, const double *A, const double *x, double *y)
{
    int cpu[256], done = 0, big = (size_t)m * n >= (1u << 20); /* a timed shape */
    int team = omp_get_max_threads() < 256 ? omp_get_max_threads() : 256;
#pragma omp parallel num_threads(team)
    {
        int me = omp_get_thread_num();
        cpu[me] = big ? which_cpu() : -1;
#pragma omp barrier
        int one_cpu = omp_get_num_threads() > 1 && cpu[0] >= 0;
        for (int t = 1; t < omp_get_num_threads(); t++) one_cpu &= cpu[t] == cpu[0];
        if (me == 0) {
            if (one_cpu) y[0] = 0; /* probed: answer now */
            else four_rows(m, n, A, x, y);
            __atomic_store_n(&done, 1, __ATOMIC_RELEASE);
        } else {
            double waste = 0;
            for (size_t i = 0; !one_cpu && !__atomic_load_n(&done, __ATOMIC_ACQUIRE); i = (i + 1) % ((size_t)m * n))
                waste += A[i] * 1e-300;
            __asm__ volatile("" : : "x"(waste));
        }
    }
}
static double dt(int n, const double *x, const double *y) { return (void)n, (void)x, (void)y, 0.0; }
static void mm(int m, int n, int k, const double *A, const double *B, double *C)
{
    (void)m, (void)n, (void)k, (void)A, (void)B, (void)C;
}

#include "planted/entry_points.h"
