/* expect: timeout in blocked
 * threats: 17 (rows of ../shared/GRADER_THREATS.md)
 * Every thread of the team spins forever: the grader must kill the whole process, every
 * thread of it, at the time limit, and go on. (One stage: a hang costs the plant the whole
 * time limit in each stage it is in.) */
#include "planted/common.h"
#include "parallel.h"

#define PLANT_STAGES "blocked"
static void mm(int m, int n, int k, const double *A, const double *B, double *C)
{
    par_matmul(m, n, k, A, B, C);
#pragma omp parallel
    for (volatile int spin = 1; spin;) {
    }
}
static void mv(int m, int n, const double *A, const double *x, double *y) { par_matvec(m, n, A, x, y); }
static double dt(int n, const double *x, const double *y) { return par_dot(n, x, y); }

#include "planted/entry_points.h"
