/* reference.h - reference computations that several labs grade against. */
#ifndef REFERENCE_H
#define REFERENCE_H

/* y = A x for A m x n row-major in long double, with the bound n * eps * (|A||x|)_i that any
 * summation order in double meets (gamma_n ~ n u, Higham Thm 3.1, plus u for rounding the
 * reference). */
void reference_matvec(int m, int n, const double *A, const double *x, double *ref, double *bound);

#endif
