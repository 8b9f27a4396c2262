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
/* The same at positions at[0..count) only (one row's dot product each). */
void matvec_reference_at(lab_shape s, void *const *buf, const uint64_t *at, size_t count, double *ref, double *bound);
/* Graded sizes: edges, odd shapes, every n % 4, and one timed case about four times the
 * last-level cache (at least 64 MiB), so A streams from memory. */
int matvec_cases(rng *r, size_t llc_bytes, lab_case *out);
int matvec_bench_cases(size_t llc_bytes, lab_case *out);

/* C += A B in double. Buffers: A (m x k, lda = k), B (k x n, ldb = n), C (m x n, ldc = n), C
 * sent with random contents and compared after the call. */
enum { GEMM_A, GEMM_B, GEMM_C, GEMM_NBUFS };
void gemm_layout(lab_shape s, lab_buf *b);
double gemm_flops(lab_shape s); /* 2mnk */
double gemm_bytes(lab_shape s); /* 8(mk + kn + 2mn): each matrix once, C read and written */
/* The reference in long double, with the bound (k + 1) eps (|C0| + |A||B|)_ij that k + 1 terms
 * summed in any order in double meet. */
void gemm_reference(lab_shape s, void *const *buf, double *ref, double *bound);
/* The same at positions at[0..count) only: one dot product each (a timed call's checks). */
void gemm_reference_at(lab_shape s, void *const *buf, const uint64_t *at, size_t count, double *ref, double *bound);
/* Eight small shapes every matrix-multiply lab checks: 1 x 1 x 1, k = 1, single rows and
 * columns, odd and prime sizes, and one random shape. */
int gemm_edge_cases(rng *r, lab_case *out);
/* The edge shapes, 127 x 129 x 131 and 389 x 263 x 421 (multiples of no block size), and n^3
 * timed; and `make bench`'s sizes for blocked kernels, 256^3 to 2048^3 and a rectangle. */
int gemm_blocked_cases(rng *r, int n, lab_case *out);
/* A CPU C += A B problem judged against OpenBLAS dgemm: name, sizes and bench sizes. */
#define DGEMM_PROBLEM(id, cases_fn, bench_fn) \
    {.name = id, .nbufs = GEMM_NBUFS, .out = GEMM_C, .vary = GEMM_A, .layout = gemm_layout, .flops = gemm_flops, \
     .bytes = gemm_bytes, .reference = gemm_reference, .reference_at = gemm_reference_at, .ceiling = CEIL_BLAS, .blas = "dgemm", .lo = -1, .hi = 1, \
     .cases = cases_fn, .bench_cases = bench_fn}
int gemm_blocked_bench(size_t llc, lab_case *out);
/* The shape cache blocking is judged at: 256 x s x s, B (s x s) twice the last-level cache. */
lab_shape gemm_past_llc_shape(size_t llc_bytes);
int gemm_past_llc_cases(rng *r, size_t llc_bytes, lab_case *out);

/* C = alpha A B + beta C in float on a GPU (lab 06): the GEMM buffers with F32 elements, C sent
 * with random contents. Bytes: 4(mk + kn + 2mn). */
void sgemm_layout(lab_shape s, lab_buf *b);
double sgemm_bytes(lab_shape s);
void sgemm_reference(lab_shape s, void *const *buf, double alpha, double beta, double *ref, double *bound);
void sgemm_reference_at(lab_shape s, void *const *buf, double alpha, double beta, const uint64_t *at, size_t count,
                        double *ref, double *bound);

/* C = A B with A and B in half precision and C in float (lab 07): C is output only. Bytes:
 * 2(mk + kn) + 4mn. */
void hgemm_layout(lab_shape s, lab_buf *b);
double hgemm_bytes(lab_shape s);
void hgemm_reference(lab_shape s, void *const *buf, double *ref, double *bound);
void hgemm_reference_at(lab_shape s, void *const *buf, const uint64_t *at, size_t count, double *ref, double *bound);
/* `make bench`'s sizes for a half-precision GEMM: 1024^3 to 8192^3. */
int hgemm_bench(size_t l2, lab_case *out);
/* The half-precision GEMM on a GPU judged against cuBLAS HGEMM (labs 07 and 12), with the lab's
 * sizes. Inputs are multiples of 2^-8 in [-1, 1]: exact in half, like the data a model would hold. */
#define HGEMM_PROBLEM(cases_fn) \
    {.name = "hgemm", .nbufs = GEMM_NBUFS, .out = GEMM_C, .vary = GEMM_A, .layout = hgemm_layout, .flops = gemm_flops, \
     .bytes = hgemm_bytes, .reference = hgemm_reference, .reference_at = hgemm_reference_at, .ceiling = CEIL_BLAS, \
     .blas = "hgemm", .alpha = 1, .probe_flops = 4e9, .lo = -1, .hi = 1, .quantum = 0x1p-8, .cases = cases_fn, \
     .bench_cases = hgemm_bench}

/* The error bound of a float-accumulated product of depth k whose magnitude |alpha||A||B| +
 * |beta||C| is mag: (k + 2) 2^-24 mag. The GPU probe's cuBLAS reference uses it too. */
double fp32_gemm_bound(int k, double mag);

#endif
