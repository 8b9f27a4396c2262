/* expect: audit
 * threats: 31 (rows of ../shared/GRADER_THREATS.md)
 * Chooses its own thread count. The grader sets it (and runs 1, 2 and 3): not allowed. */
#include <omp.h>

#include "planted/common.h"
#include "parallel.h"

void omp_matvec(int m, int n, const double *A, const double *x, double *y)
{
    omp_set_num_threads(1);
    serial_matvec(m, n, A, x, y);
}
double omp_dot(int n, const double *x, const double *y) { return serial_dot(n, x, y); }
void omp_matmul(int m, int n, int k, const double *A, const double *B, double *C) { serial_matmul(m, n, k, A, B, C); }
void omp_blocked(int m, int n, int k, const double *A, const double *B, double *C) { serial_matmul(m, n, k, A, B, C); }
