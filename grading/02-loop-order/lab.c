/* lab.c - lab 02, C += A B in double: the six loop orders, then cache and register blocking,
 * judged against OpenBLAS dgemm measured in the same run. See common/both/lab.h for the fields. */
#include "gemm.h"
#include "lab.h"
#include "problems.h"

enum { A = GEMM_A, B = GEMM_B, C = GEMM_C };

/* The loop orders are timed at 512^3: large enough that B (2 MiB) leaves L2, small enough that
 * the slowest order still finishes a call in about a second. */
static int order_cases(rng *r, size_t llc, lab_case *out)
{
    int n = gemm_edge_cases(r, out);
    (void)llc;
    out[n++] = (lab_case){{512, 512, 512}, 1};
    return n;
}

/* Blocking is timed where it is what makes the code fast: 256 x s x s with B twice the last-level
 * cache (problems.c, gemm_past_llc_shape: s = 3072 on a 35.75 MiB L3, 1472 on an 8 MiB one). At
 * 1024^3 the matrices fit a large L3, and i-k-j was as fast as the reference's blocked loops. */
static int blocked_cases(rng *r, size_t llc, lab_case *out) { return gemm_past_llc_cases(r, llc, out); }

/* Register blocking is timed at 1024^3, in cache: there the arithmetic, not memory, is the limit,
 * and a block of C kept in registers across the k loop is what lifts it. */
static int register_cases(rng *r, size_t llc, lab_case *out)
{
    (void)llc;
    return gemm_blocked_cases(r, 1024, out);
}

static int order_bench(size_t llc, lab_case *out)
{
    lab_shape s[] = {{128, 128, 128}, {256, 256, 256}, {512, 512, 512}, {1024, 1024, 1024}};
    for (int i = 0; i < 4; i++) out[i] = (lab_case){s[i], 1};
    (void)llc;
    return 4;
}

static const lab_problem orders = DGEMM_PROBLEM("gemm-512", order_cases, order_bench);
static const lab_problem blocked = DGEMM_PROBLEM("gemm-past-llc", blocked_cases, gemm_blocked_bench);
static const lab_problem registers = DGEMM_PROBLEM("gemm-1024", register_cases, gemm_blocked_bench);

#ifdef LAB_RUNNER
#define RUN(fn) static void fn##_run(lab_call *c) { fn(c->s.m, c->s.n, c->s.k, c->buf[A], c->buf[B], c->buf[C]); }
RUN(gemm_ijk)
RUN(gemm_ikj)
RUN(gemm_jik)
RUN(gemm_jki)
RUN(gemm_kij)
RUN(gemm_kji)
RUN(gemm_blocked)
RUN(gemm_register)
#endif

#define STAGE(id, what, problem) {#id, "gemm_" #id, what, &problem, NULL, NULL, RUNNER_ONLY(gemm_##id##_run), NULL, NULL}

/* The `what` of a loop order: each operand's stride in the innermost loop (0: the same element). */
static const lab_stage stages[] = {
    STAGE(ijk, "inner k: A stride 1, B stride n, C stride 0", orders),
    STAGE(ikj, "inner j: A stride 0, B stride 1, C stride 1", orders),
    STAGE(jik, "inner k: A stride 1, B stride n, C stride 0", orders),
    STAGE(jki, "inner i: A stride k, B stride 0, C stride n", orders),
    STAGE(kij, "inner j: A stride 0, B stride 1, C stride 1", orders),
    STAGE(kji, "inner i: A stride k, B stride 0, C stride n", orders),
    STAGE(blocked, "cache blocks around a unit-stride inner loop", blocked),
    STAGE(register, "a block of C in registers across the k loop", registers),
};

const lab LAB = {
    .id = "02-loop-order",
    .title = "Matrix multiply: loop order, cache blocking, register blocking",
    .source = "gemm.c",
    .threads = 1,
    .stages = stages,
    .nstages = sizeof stages / sizeof stages[0],
    .ranked = 6,
};
