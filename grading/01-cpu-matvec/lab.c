/* lab.c - lab 01, y = A x in double: buffers, stages, reference and sizes.
 * The harness (common/) does everything else; see common/lab.h for the fields. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lab.h"
#include "problems.h"
#include "matvec.h"

enum { A = MATVEC_A, X = MATVEC_X, Y = MATVEC_Y };

/* Edge shapes, odd and prime shapes, every n % 4, and one timed case whose matrix is about
 * four times the last-level cache, so it is read from memory and not from cache. */
static int cases(rng *r, size_t llc_bytes, lab_case *out)
{
    int odd = 2 * rng_int(r, 50, 400) + 1;
    lab_shape fixed[] = {
        {1, 1, 0}, {1, odd, 0}, {odd, 1, 0}, {61, 67, 0}, {1000, 1003, 0}, {64, 128, 0},
        {rng_int(r, 2, 300), 4 * rng_int(r, 1, 100), 0}, {rng_int(r, 2, 300), 4 * rng_int(r, 1, 100) + 1, 0},
        {rng_int(r, 2, 300), 4 * rng_int(r, 1, 100) + 2, 0}, {rng_int(r, 2, 300), 4 * rng_int(r, 1, 100) + 3, 0},
    };
    int k = 0;
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) out[k++] = (lab_case){fixed[i], 0};
    double target = fmax(4.0 * (double)llc_bytes, 64.0 * (1 << 20));
    int side = (int)ceil(sqrt(target / sizeof(double)));
    out[k++] = (lab_case){{side + rng_int(r, 0, 63), side + rng_int(r, 0, 63), 0}, 1};
    return k;
}

/* From L2-resident to twice the timed size; a wide and a tall shape. */
static int bench_cases(size_t llc_bytes, lab_case *out)
{
    int side = (int)ceil(sqrt(fmax(4.0 * (double)llc_bytes, 64.0 * (1 << 20)) / sizeof(double)));
    lab_shape s[] = {{128, 128, 0}, {512, 512, 0}, {1024, 1024, 0}, {2048, 2048, 0}, {side, side, 0},
                     {(int)(side * 1.41), (int)(side * 1.41), 0}, {64, side * side / 64, 0}, {side * side / 64, 64, 0}};
    int k = 0;
    for (size_t i = 0; i < sizeof s / sizeof s[0]; i++) out[k++] = (lab_case){s[i], 1};
    return k;
}

#ifdef LAB_RUNNER
/* Stage 1 gets each row as its own allocation, built outside the timed call. */
static void rows_setup(lab_call *c)
{
    double **rows = malloc((size_t)c->s.m * sizeof *rows);
    for (int i = 0; i < c->s.m; i++) {
        rows[i] = malloc((size_t)c->s.n * sizeof(double));
        memcpy(rows[i], (double *)c->buf[A] + (size_t)i * c->s.n, (size_t)c->s.n * sizeof(double));
    }
    c->ctx = rows;
}

/* Copy the rows back so the grader sees any change the student made to them. */
static void rows_teardown(lab_call *c)
{
    double **rows = c->ctx;
    for (int i = 0; i < c->s.m; i++) {
        memcpy((double *)c->buf[A] + (size_t)i * c->s.n, rows[i], (size_t)c->s.n * sizeof(double));
        free(rows[i]);
    }
    free(rows);
}

static void rows_run(lab_call *c)
{
    matvec_rows(c->s.m, c->s.n, (const double *const *)c->ctx, c->buf[X], c->buf[Y]);
}
static void contiguous_run(lab_call *c) { matvec_contiguous(c->s.m, c->s.n, c->buf[A], c->buf[X], c->buf[Y]); }
static void unrolled_run(lab_call *c) { matvec_unrolled(c->s.m, c->s.n, c->buf[A], c->buf[X], c->buf[Y]); }
#endif

static const lab_problem matvec = {
    .name = "matvec",
    .nbufs = MATVEC_NBUFS,
    .out = Y,
    .vary = X,
    .layout = matvec_layout,
    .flops = matvec_flops,
    .bytes = matvec_bytes,
    .reference = matvec_reference,
    .lo = -1,
    .hi = 1,
    .cases = cases,
    .bench_cases = bench_cases,
};

static const lab_stage stages[] = {
    {"rows", "matvec_rows", "naive loop over separately allocated rows", &matvec,
     RUNNER_ONLY(rows_setup), NULL, RUNNER_ONLY(rows_run), NULL, RUNNER_ONLY(rows_teardown)},
    {"contiguous", "matvec_contiguous", "one contiguous row-major block", &matvec,
     NULL, NULL, RUNNER_ONLY(contiguous_run), NULL, NULL},
    {"unrolled", "matvec_unrolled", "j loop unrolled by 4, independent accumulators", &matvec,
     NULL, NULL, RUNNER_ONLY(unrolled_run), NULL, NULL},
};

const lab LAB = {
    .id = "01-cpu-matvec",
    .title = "Matrix-vector product on one core",
    .source = "matvec.c",
    .threads = 1,
    .stages = stages,
    .nstages = sizeof stages / sizeof stages[0],
};
