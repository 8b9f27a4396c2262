/* parallel.c - lab 03: your OpenMP code. This is the one file you edit for this lab.
 *
 * Read handouts/03-openmp.md first. The prototypes are in grading/03-openmp/parallel.h (do not
 * edit it). Grade with:  make grade LAB=03
 *
 * Rules the grader enforces: the grader chooses the number of threads (OMP_NUM_THREADS) and runs
 * every stage at 1, 2 and 3 threads, so your code must be right for any count and must not set it
 * (no omp_set_num_threads, no num_threads clause); make helpers `static`; no BLAS. Matrices are
 * row-major: A m x n has element (i, j) at A[i * n + j]. */
#include <stddef.h>

#include "parallel.h"

/* ---------------------------------------------------------------- stage 1: matvec */

/* TODO(stage 1): y = A x with the rows shared among the threads: start from your lab 01 kernel
 * (contiguous or unrolled) and put `#pragma omp parallel for` on the row loop. Which variables
 * must be private to each thread? (Those declared inside the loop already are.) */
void omp_matvec(int m, int n, const double *A, const double *x, double *y)
{
    (void)m, (void)n, (void)A, (void)x, (void)y;
}

/* ---------------------------------------------------------------- stage 2: dot */

/* TODO(stage 2): return x[0] y[0] + ... + x[n-1] y[n-1], in parallel. A shared `sum += ...` is a
 * race (the handout shows what it returns): use `reduction(+ : sum)`. */
double omp_dot(int n, const double *x, const double *y)
{
    (void)n, (void)x, (void)y;
    return 0;
}

/* ---------------------------------------------------------------- stage 3: matmul */

/* TODO(stage 3): C += A B (A m x k, B k x n, C m x n) with `#pragma omp parallel for collapse(2)`
 * over two loops whose iterations write different elements of C. Keep the innermost loop
 * unit-stride (lab 02's lesson). */
void omp_matmul(int m, int n, int k, const double *A, const double *B, double *C)
{
    (void)m, (void)n, (void)k, (void)A, (void)B, (void)C;
}

/* ---------------------------------------------------------------- stage 4: blocked */

/* TODO(stage 4): bring your lab 02 blocked or register-blocked gemm here and share its blocks of
 * C among the threads. Two threads must never write the same block of C, and any buffer you
 * pack B into must be private to its thread. */
void omp_blocked(int m, int n, int k, const double *A, const double *B, double *C)
{
    (void)m, (void)n, (void)k, (void)A, (void)B, (void)C;
}
