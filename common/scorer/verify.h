/* verify.h - comparing outputs with the reference, and saying in words what a wrong output
 * looks like, so a student knows where to look. */
#ifndef VERIFY_H
#define VERIFY_H

#include <stddef.h>

#include "lab.h"

/* Elements with !(|got - ref| <= bound) or got not finite; written so NaN and Inf always fail.
 * *first gets the index of the first bad element (if any). */
size_t count_bad(const double *got, const double *ref, const double *bound, size_t n, size_t *first);

/* A sentence on the pattern of wrong elements in one output of rows x cols (row-major):
 * nothing written, NaN/Inf, all zeros, off by a constant factor, only the last rows or columns.
 * `poison` is the value written before the call; `gpu`: the output of a GPU lab (nothing written
 * may be a launch that never started). Empty when no pattern stands out. */
void diagnose_output(const double *got, const double *ref, const double *bound, size_t rows, size_t cols,
                     double poison, int gpu, char *out, size_t len);

/* A sentence on which sizes fail: "fails only when n is not a multiple of 4", "fails only on
 * shapes with a dimension of 1". ok[i] says whether case i passed. Empty when nothing stands out. */
void diagnose_sizes(const lab_case *cases, const int *ok, int n, char *out, size_t len);

#endif
