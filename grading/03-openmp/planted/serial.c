/* expect: no-speedup in matmul
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * Correct serial code: fast enough against the ceiling for matmul's modest threshold, but no
 * faster with two threads than with one. */
#include "planted/common.h"
#include "parallel.h"

void omp_matmul(int m, int n, int k, const double *A, const double *B, double *C) { serial_matmul(m, n, k, A, B, C); }
void omp_matvec(int m, int n, const double *A, const double *x, double *y) { serial_matvec(m, n, A, x, y); }
double omp_dot(int n, const double *x, const double *y) { return serial_dot(n, x, y); }
void omp_blocked(int m, int n, int k, const double *A, const double *B, double *C) { serial_matmul(m, n, k, A, B, C); }
