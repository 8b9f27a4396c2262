/* expect: audit
 * threats: 9, 11 (rows of ../shared/GRADER_THREATS.md)
 * A destructor, run as the process exits, that prints a perfect summary after the real one
 * would have been printed. Rejected: the object has a .fini_array section. */
#include <stdio.h>

#include "planted/common.h"
#include "parallel.h"

__attribute__((destructor)) static void last_word(void)
{
    printf("03-openmp: 4 of 4 stages pass; score 40.0 / 40\n");
}

static void mv(int m, int n, const double *A, const double *x, double *y) { par_matvec(m, n, A, x, y); }
static double dt(int n, const double *x, const double *y) { return par_dot(n, x, y); }
static void mm(int m, int n, int k, const double *A, const double *B, double *C) { par_matmul(m, n, k, A, B, C); }

#include "planted/entry_points.h"
