/* lab.c - lab 01, y = A x in double: buffers, stages, reference and sizes.
 * The harness (common/) does everything else; see common/both/lab.h for the fields. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lab.h"
#include "problems.h"
#include "proto.h"
#include "matvec.h"

enum { A = MATVEC_A, X = MATVEC_X, Y = MATVEC_Y };

#ifdef LAB_RUNNER
/* Stage 1 gets each row as its own allocation, built outside the timed call, with ROW_GUARD
 * doubles of NaN after it (as proto.h's guards of inputs): a loop that reads past the end of a row (j <= n)
 * gets NaN. */
#define ROW_GUARD 8
static void rows_setup(lab_call *c)
{
    double **rows = malloc((size_t)c->s.m * sizeof *rows);
    for (int i = 0; i < c->s.m; i++) {
        rows[i] = malloc(((size_t)c->s.n + ROW_GUARD) * sizeof(double));
        memcpy(rows[i], (double *)c->buf[A] + (size_t)i * c->s.n, (size_t)c->s.n * sizeof(double));
        memset(rows[i] + c->s.n, GUARD_INPUT_BYTE, ROW_GUARD * sizeof(double)); /* NaN */
    }
    c->ctx = rows;
}

/* Copy the rows back so the grader sees any change the student made to them, a write into a
 * row's guard included (it then changes the row's last element: "changed its input"). */
static void rows_teardown(lab_call *c)
{
    double **rows = c->ctx;
    for (int i = 0; i < c->s.m; i++) {
        int spoiled = 0;
        for (int g = 0; g < ROW_GUARD; g++) spoiled |= !isnan(rows[i][c->s.n + g]);
        if (spoiled && c->s.n > 0) rows[i][c->s.n - 1] = -rows[i][c->s.n - 1] - 1;
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
    .reference_at = matvec_reference_at,
    .lo = -1,
    .hi = 1,
    .cases = matvec_cases,
    .bench_cases = matvec_bench_cases,
};

/* The first two stages are one chain of adds (a multiply and an add an element): judged also
 * against the rate of that chain on this machine, since on a core that streams memory fast the add
 * latency, not memory, is their roof. The third breaks the chain into four: judged against memory,
 * or, where memory is far faster than one chain, against the chain's rate (thresholds.conf). */
static const lab_stage stages[] = {
    {.name = "rows", .function = "matvec_rows", .what = "naive loop over separately allocated rows", .problem = &matvec,
     .setup = RUNNER_ONLY(rows_setup), .run = RUNNER_ONLY(rows_run), .teardown = RUNNER_ONLY(rows_teardown), .chain = 2},
    {.name = "contiguous", .function = "matvec_contiguous", .what = "one contiguous row-major block", .problem = &matvec,
     .run = RUNNER_ONLY(contiguous_run), .chain = 2},
    {.name = "unrolled", .function = "matvec_unrolled", .what = "j loop unrolled by 4, independent accumulators",
     .problem = &matvec, .run = RUNNER_ONLY(unrolled_run), .chain = 2, .chains = 4},
};

const lab LAB = {
    .id = "01-cpu-matvec",
    .title = "Matrix-vector product on one core",
    .source = "matvec.c",
    .threads = 1,
    .stages = stages,
    .nstages = sizeof stages / sizeof stages[0],
};
