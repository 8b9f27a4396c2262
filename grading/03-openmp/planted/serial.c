/* expect: no-speedup in matmul
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * Correct serial code: fast enough against the ceiling for matmul's modest threshold, but no
 * faster than the one-thread baseline, and one CPU's worth of work by the kernel's count. */
#include "planted/common.h"
#include "parallel.h"

void omp_matmul(int m, int n, int k, const double *A, const double *B, double *C) { serial_matmul(m, n, k, A, B, C); }
/* The stages this plant is not about do nothing: they fail at once instead of being graded in full. */
void omp_matvec(int m, int n, const double *A, const double *x, double *y) { (void)m, (void)n, (void)A, (void)x, (void)y; }
double omp_dot(int n, const double *x, const double *y) { return (void)n, (void)x, (void)y, 0.0; }
void omp_blocked(int m, int n, int k, const double *A, const double *B, double *C) { (void)m, (void)n, (void)k, (void)A, (void)B, (void)C; }
