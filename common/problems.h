/* problems.h - problems that several labs grade: the buffers, work and reference of each, so a
 * lab's lab.c only adds its own sizes and stages. */
#ifndef PROBLEMS_H
#define PROBLEMS_H

#include "lab.h"

/* y = A x in double. Buffers: A (m x n, row-major, lda = n), x (n), y (m). */
enum { MATVEC_A, MATVEC_X, MATVEC_Y, MATVEC_NBUFS };
void matvec_layout(lab_shape s, lab_buf *b);
double matvec_flops(lab_shape s); /* 2mn */
double matvec_bytes(lab_shape s); /* 8(mn + m + n): A once, x and y once */
/* The reference in long double, with the bound n * eps * (|A||x|)_i that any summation order in
 * double meets (gamma_n ~ n u, Higham Thm 3.1, plus u for rounding the reference). */
void matvec_reference(lab_shape s, void *const *buf, double *ref, double *bound);

#endif
