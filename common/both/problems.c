/* problems.c - see problems.h. */
#include "problems.h"
#include "proto.h"

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>

void matvec_layout(lab_shape s, lab_buf *b)
{
    b[MATVEC_A] = (lab_buf){"A", ROLE_IN, F64, (size_t)s.m, (size_t)s.n};
    b[MATVEC_X] = (lab_buf){"x", ROLE_IN, F64, 1, (size_t)s.n};
    b[MATVEC_Y] = (lab_buf){"y", ROLE_OUT, F64, 1, (size_t)s.m};
}

double matvec_flops(lab_shape s) { return 2.0 * s.m * s.n; }

double matvec_bytes(lab_shape s) { return 8.0 * ((double)s.m * s.n + s.n + s.m); }

void matvec_reference(lab_shape s, void *const *buf, double *ref, double *bound)
{
    const double *A = buf[MATVEC_A], *x = buf[MATVEC_X];
    for (int i = 0; i < s.m; i++) {
        const double *a = A + (size_t)i * s.n;
        long double acc = 0, mag = 0;
        for (int j = 0; j < s.n; j++) {
            acc += (long double)a[j] * x[j];
            mag += fabsl((long double)a[j] * x[j]);
        }
        ref[i] = (double)acc;
        bound[i] = (double)(s.n * (long double)DBL_EPSILON * mag);
    }
}

void matvec_reference_at(lab_shape s, void *const *buf, const uint64_t *at, size_t count, double *ref, double *bound)
{
    const double *A = buf[MATVEC_A], *x = buf[MATVEC_X];
#pragma omp parallel for schedule(static)
    for (size_t k = 0; k < count; k++) {
        const double *a = A + at[k] * (size_t)s.n;
        long double acc = 0, mag = 0;
        for (int j = 0; j < s.n; j++) {
            acc += (long double)a[j] * x[j];
            mag += fabsl((long double)a[j] * x[j]);
        }
        ref[at[k]] = (double)acc;
        bound[at[k]] = (double)(s.n * (long double)DBL_EPSILON * mag);
    }
}

void gemm_layout(lab_shape s, lab_buf *b)
{
    b[GEMM_A] = (lab_buf){"A", ROLE_IN, F64, (size_t)s.m, (size_t)s.k};
    b[GEMM_B] = (lab_buf){"B", ROLE_IN, F64, (size_t)s.k, (size_t)s.n};
    b[GEMM_C] = (lab_buf){"C", ROLE_INOUT, F64, (size_t)s.m, (size_t)s.n};
}

double gemm_flops(lab_shape s) { return 2.0 * s.m * s.n * (double)s.k; }

double gemm_bytes(lab_shape s) { return 8.0 * ((double)s.m * s.k + (double)s.k * s.n + 2.0 * s.m * s.n); }

/* Row by row in i-p-j order, so the long double accumulators of one row of C stay in cache. */
void gemm_reference(lab_shape s, void *const *buf, double *ref, double *bound)
{
    const double *A = buf[GEMM_A], *B = buf[GEMM_B], *C = buf[GEMM_C];
    long double *acc = malloc(sizeof *acc * (size_t)s.n * 2), *mag = acc + s.n;
    for (int i = 0; i < s.m; i++) {
        for (int j = 0; j < s.n; j++) {
            acc[j] = C[(size_t)i * s.n + j];
            mag[j] = fabsl(acc[j]);
        }
        for (int p = 0; p < s.k; p++) {
            long double a = A[(size_t)i * s.k + p];
            const double *b = B + (size_t)p * s.n;
            for (int j = 0; j < s.n; j++) {
                acc[j] += a * b[j];
                mag[j] += fabsl(a * b[j]);
            }
        }
        for (int j = 0; j < s.n; j++) {
            ref[(size_t)i * s.n + j] = (double)acc[j];
            bound[(size_t)i * s.n + j] = (double)((s.k + 1) * (long double)DBL_EPSILON * mag[j]);
        }
    }
    free(acc);
}

/* The side of a square matrix about four times the last-level cache (at least 64 MiB). */
static int matvec_side(size_t llc_bytes)
{
    return (int)ceil(sqrt(fmax(4.0 * (double)llc_bytes, 64.0 * (1 << 20)) / sizeof(double)));
}

/* Edge shapes, odd and prime shapes, every n % 4, and one timed case read from memory. */
int matvec_cases(rng *r, size_t llc_bytes, lab_case *out)
{
    int odd = 2 * rng_int(r, 50, 400) + 1;
    lab_shape fixed[] = {
        {1, 1, 0}, {1, odd, 0}, {odd, 1, 0}, {61, 67, 0}, {1000, 1003, 0}, {64, 128, 0},
        {rng_int(r, 2, 300), 4 * rng_int(r, 1, 100), 0}, {rng_int(r, 2, 300), 4 * rng_int(r, 1, 100) + 1, 0},
        {rng_int(r, 2, 300), 4 * rng_int(r, 1, 100) + 2, 0}, {rng_int(r, 2, 300), 4 * rng_int(r, 1, 100) + 3, 0},
    };
    int k = 0;
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) out[k++] = (lab_case){fixed[i], 0};
    int side = matvec_side(llc_bytes);
    out[k++] = (lab_case){{side + rng_int(r, 0, 63), side + rng_int(r, 0, 63), 0}, 1};
    return k;
}

/* From L2-resident to twice the timed size; a wide and a tall shape. */
int matvec_bench_cases(size_t llc_bytes, lab_case *out)
{
    int side = matvec_side(llc_bytes);
    lab_shape s[] = {{128, 128, 0}, {512, 512, 0}, {1024, 1024, 0}, {2048, 2048, 0}, {side, side, 0},
                     {(int)(side * 1.41), (int)(side * 1.41), 0}, {64, side * side / 64, 0}, {side * side / 64, 64, 0}};
    int k = 0;
    for (size_t i = 0; i < sizeof s / sizeof s[0]; i++) out[k++] = (lab_case){s[i], 1};
    return k;
}

/* Edges (1 x n, m x 1, k = 1), odd and prime shapes, rectangles both ways, and a random shape. */
int gemm_edge_cases(rng *r, lab_case *out)
{
    lab_shape s[] = {{1, 1, 1},     {1, 37, 53},     {53, 1, 37},    {29, 31, 1},
                     {61, 67, 59},  {100, 37, 213},  {64, 64, 64},   {rng_int(r, 2, 150), rng_int(r, 2, 150), rng_int(r, 2, 150)}};
    for (int i = 0; i < 8; i++) out[i] = (lab_case){s[i], 0};
    return 8;
}

/* Edges, then two shapes that are not multiples of any block size, then n^3 timed. */
int gemm_blocked_cases(rng *r, int n, lab_case *out)
{
    int k = gemm_edge_cases(r, out);
    out[k++] = (lab_case){{127, 129, 131}, 0};
    out[k++] = (lab_case){{389, 263, 421}, 0};
    out[k++] = (lab_case){{n, n, n}, 1};
    return k;
}

/* Where cache blocking is what makes C += A B fast: B (k x n) twice the last-level cache, so code
 * that walks all of B for each row of A (i-k-j, and every loop order) reads it from memory m
 * times, a multiply-add per 8 bytes, while blocked code keeps a block of B in cache across the rows
 * of A and is bound by arithmetic. m = 256 rows: enough reuse for blocking to pay several times over,
 * and rows for every thread of a parallel stage. The side, a multiple of 64, is between 1024 and 8192. */
lab_shape gemm_past_llc_shape(size_t llc_bytes)
{
    double side = sqrt(2.0 * (double)llc_bytes / sizeof(double));
    int s = 64 * (int)ceil(side / 64);
    s = s < 1024 ? 1024 : s > 8192 ? 8192 : s;
    return (lab_shape){256, s, s};
}

/* Edges, two shapes that are not multiples of any block size, then the shape past the last-level cache timed. */
int gemm_past_llc_cases(rng *r, size_t llc_bytes, lab_case *out)
{
    int k = gemm_edge_cases(r, out);
    out[k++] = (lab_case){{127, 129, 131}, 0};
    out[k++] = (lab_case){{389, 263, 421}, 0};
    out[k++] = (lab_case){gemm_past_llc_shape(llc_bytes), 1};
    return k;
}

/* From L2 to beyond the last-level cache, a rectangle, and the judged shape past it. */
int gemm_blocked_bench(size_t llc, lab_case *out)
{
    lab_shape s[] = {{256, 256, 256}, {512, 512, 512}, {1024, 1024, 1024}, {2048, 2048, 2048}, {1024, 2048, 512},
                     gemm_past_llc_shape(llc)};
    for (int i = 0; i < 6; i++) out[i] = (lab_case){s[i], 1};
    return 6;
}

/* ---------------------------------------------------------------- GPU matrix multiplies */

void sgemm_layout(lab_shape s, lab_buf *b)
{
    b[GEMM_A] = (lab_buf){"A", ROLE_IN, F32, (size_t)s.m, (size_t)s.k};
    b[GEMM_B] = (lab_buf){"B", ROLE_IN, F32, (size_t)s.k, (size_t)s.n};
    b[GEMM_C] = (lab_buf){"C", ROLE_INOUT, F32, (size_t)s.m, (size_t)s.n};
}

double sgemm_bytes(lab_shape s) { return 4.0 * ((double)s.m * s.k + (double)s.k * s.n + 2.0 * s.m * s.n); }

void hgemm_layout(lab_shape s, lab_buf *b)
{
    b[GEMM_A] = (lab_buf){"A", ROLE_IN, F16, (size_t)s.m, (size_t)s.k};
    b[GEMM_B] = (lab_buf){"B", ROLE_IN, F16, (size_t)s.k, (size_t)s.n};
    b[GEMM_C] = (lab_buf){"C", ROLE_OUT, F32, (size_t)s.m, (size_t)s.n};
}

double hgemm_bytes(lab_shape s) { return 2.0 * ((double)s.m * s.k + (double)s.k * s.n) + 4.0 * s.m * s.n; }

/* alpha A B + beta C0 from the typed inputs the layout gives; the bound is
 * gamma_(k+2) in float (u = 2^-24) times |alpha| |A||B| + |beta| |C0|: float accumulation of k
 * products, then the alpha/beta update. Without a C input (hgemm), C0 = 0. */
static void fp32_gemm_reference(void (*layout)(lab_shape, lab_buf *), lab_shape s, void *const *buf, double alpha,
                                double beta, double *ref, double *bound)
{
    lab_buf b[GEMM_NBUFS];
    layout(s, b);
    /* In double, i-p-j so the inner loop vectorises: the reference's own error, k 2^-53 mag, is
     * a billionth of the float bound it is judged with. */
    size_t na = (size_t)s.m * s.k, nb = (size_t)s.k * s.n;
    double *a = malloc(sizeof *a * (na + nb + 2 * (size_t)s.n)), *bb = a + na, *acc = bb + nb, *sum = acc + s.n;
    for (size_t i = 0; i < na; i++) a[i] = elem_get(buf[GEMM_A], b[GEMM_A].type, i);
    for (size_t i = 0; i < nb; i++) bb[i] = elem_get(buf[GEMM_B], b[GEMM_B].type, i);
    for (int i = 0; i < s.m; i++) {
        for (int j = 0; j < s.n; j++) acc[j] = sum[j] = 0;
        for (int p = 0; p < s.k; p++) {
            double x = a[(size_t)i * s.k + p];
            const double *row = bb + (size_t)p * s.n;
            for (int j = 0; j < s.n; j++) {
                acc[j] += x * row[j];
                sum[j] += fabs(x * row[j]);
            }
        }
        for (int j = 0; j < s.n; j++) {
            size_t at = (size_t)i * s.n + j;
            double c0 = b[GEMM_C].role == ROLE_INOUT ? elem_get(buf[GEMM_C], b[GEMM_C].type, at) : 0;
            ref[at] = alpha * acc[j] + beta * c0;
            bound[at] = fp32_gemm_bound(s.k, fabs(alpha) * sum[j] + fabs(beta * c0));
        }
    }
    free(a);
}

double fp32_gemm_bound(int k, double mag) { return (k + 2) * ldexp(mag, -24); }

void sgemm_reference(lab_shape s, void *const *buf, double alpha, double beta, double *ref, double *bound)
{
    fp32_gemm_reference(sgemm_layout, s, buf, alpha, beta, ref, bound);
}

/* Twice the float bound: tensor cores may truncate rather than round as they accumulate. */
int hgemm_bench(size_t l2, lab_case *out)
{
    for (int i = 0; i < 4; i++) out[i] = (lab_case){{1024 << i, 1024 << i, 1024 << i}, 1};
    (void)l2;
    return 4;
}

void hgemm_reference(lab_shape s, void *const *buf, double *ref, double *bound)
{
    fp32_gemm_reference(hgemm_layout, s, buf, 1, 0, ref, bound);
    for (size_t i = 0, n = (size_t)s.m * s.n; i < n; i++) bound[i] *= 2;
}

/* Positions at[0..count) of alpha A B + beta C0 for any element types: one dot product each.
 * The rows of A and columns of B that the positions touch are first copied out as doubles
 * (timed positions lie on a grid of a few rows and columns), so every product streams from
 * cache. Double inputs are summed in long double; fp32 and fp16 ones in double, whose error is
 * far below their bound. `bound` gives an element's bound from k and its magnitude
 * |alpha||A||B| + |beta||C0|. */
static double *gather_lines(const void *src, lab_type t, int nlines, int len, size_t line_step, size_t elem_step,
                            const int *slot, int nslots)
{
    double *out = malloc(sizeof *out * (size_t)nslots * (size_t)len + 1);
#pragma omp parallel for schedule(static)
    for (int l = 0; l < nlines; l++)
        if (slot[l] >= 0)
            for (int p = 0; p < len; p++)
                out[(size_t)slot[l] * len + p] = elem_get(src, t, (size_t)l * line_step + (size_t)p * elem_step);
    return out;
}

static void typed_gemm_at(void (*layout)(lab_shape, lab_buf *), lab_shape s, void *const *buf, double alpha, double beta,
                          double (*bound_of)(int k, double mag), const uint64_t *at, size_t count, double *ref,
                          double *bound)
{
    lab_buf b[GEMM_NBUFS];
    layout(s, b);
    int *rslot = malloc(sizeof *rslot * (size_t)s.m), *cslot = malloc(sizeof *cslot * (size_t)s.n), nrows = 0, ncols = 0;
    for (int i = 0; i < s.m; i++) rslot[i] = -1;
    for (int j = 0; j < s.n; j++) cslot[j] = -1;
    for (size_t k = 0; k < count; k++) {
        size_t i = at[k] / (size_t)s.n, j = at[k] % (size_t)s.n;
        if (rslot[i] < 0) rslot[i] = nrows++;
        if (cslot[j] < 0) cslot[j] = ncols++;
    }
    double *rows = gather_lines(buf[GEMM_A], b[GEMM_A].type, s.m, s.k, (size_t)s.k, 1, rslot, nrows);
    double *cols = gather_lines(buf[GEMM_B], b[GEMM_B].type, s.n, s.k, 1, (size_t)s.n, cslot, ncols);
    int wide = b[GEMM_A].type == F64 || b[GEMM_B].type == F64;
#pragma omp parallel for schedule(dynamic, 16)
    for (size_t k = 0; k < count; k++) {
        size_t i = at[k] / (size_t)s.n, j = at[k] % (size_t)s.n;
        const double *row = rows + (size_t)rslot[i] * s.k, *col = cols + (size_t)cslot[j] * s.k;
        long double acc = 0, mag = 0;
        if (wide)
            for (int p = 0; p < s.k; p++) {
                long double x = row[p] * (long double)col[p];
                acc += x;
                mag += fabsl(x);
            }
        else {
            double a = 0, m = 0;
            for (int p = 0; p < s.k; p++) {
                double x = row[p] * col[p];
                a += x;
                m += fabs(x);
            }
            acc = a, mag = m;
        }
        double c0 = b[GEMM_C].role == ROLE_INOUT ? elem_get(buf[GEMM_C], b[GEMM_C].type, at[k]) : 0;
        ref[at[k]] = (double)(alpha * acc + beta * (long double)c0);
        bound[at[k]] = bound_of(s.k, fabs(alpha) * (double)mag + fabs(beta * c0));
    }
    free(rows);
    free(cols);
    free(rslot);
    free(cslot);
}

static double fp64_gemm_bound(int k, double mag) { return (k + 1) * DBL_EPSILON * mag; }
static double fp16_in_gemm_bound(int k, double mag) { return 2 * fp32_gemm_bound(k, mag); }

void gemm_reference_at(lab_shape s, void *const *buf, const uint64_t *at, size_t count, double *ref, double *bound)
{
    typed_gemm_at(gemm_layout, s, buf, 1, 1, fp64_gemm_bound, at, count, ref, bound);
}

void sgemm_reference_at(lab_shape s, void *const *buf, double alpha, double beta, const uint64_t *at, size_t count,
                        double *ref, double *bound)
{
    typed_gemm_at(sgemm_layout, s, buf, alpha, beta, fp32_gemm_bound, at, count, ref, bound);
}

void hgemm_reference_at(lab_shape s, void *const *buf, const uint64_t *at, size_t count, double *ref, double *bound)
{
    typed_gemm_at(hgemm_layout, s, buf, 1, 0, fp16_in_gemm_bound, at, count, ref, bound);
}
