/* test_units.c - the harness pieces, one at a time. */
#define _GNU_SOURCE
#include <float.h>
#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <sys/stat.h>
#include <unistd.h>

#include "calib.h"
#include "checks.h"
#include "config.h"
#include "grade.h"
#include "json.h"
#include "ncu.h"
#include "judge.h"
#include "lab.h"
#include "problems.h"
#include "proto.h"
#include "report.h"
#include "rng.h"
#include "sandbox.h"
#include "session.h"
#include "stats.h"
#include "submission.h"
#include "technique.h"
#include "tests.h"
#include "util.h"
#include "verify.h"

/* ---------------------------------------------------------------- statistics */

/* Requirements print at the precision they are set with, and a rate just short of one never
 * prints equal to it. */
START_TEST(test_percent_decimals_show_requirements_as_set)
{
    ck_assert_int_eq(percent_decimals(0.005, 0.005), 1); /* 0.5%, not 0% */
    ck_assert_int_eq(percent_decimals(0.025, 0.025), 1);
    ck_assert_int_eq(percent_decimals(0.60, 0.60), 0);
    ck_assert_int_eq(percent_decimals(0.002, 0.0), 1);
    ck_assert_int_eq(percent_decimals(0.55, 0.5496), 2); /* 54.96% against 55.00%, not 55% against 55% */
    ck_assert_int_eq(percent_decimals(0.55, 0.70), 0);
}
END_TEST

START_TEST(test_median_odd_even_and_empty)
{
    double odd[] = {5, 1, 3}, even[] = {4, 1, 3, 2};
    ck_assert_double_eq(median(odd, 3), 3);
    ck_assert_double_eq(median(even, 4), 2.5);
    ck_assert(isnan(median(NULL, 0)));
}
END_TEST

START_TEST(test_median_ignores_one_outlier)
{
    double t[] = {1.0, 1.1, 0.9, 1.05, 50.0};
    ck_assert_double_eq_tol(median(t, 5), 1.05, 1e-12);
}
END_TEST

/* ---------------------------------------------------------------- tolerance */

START_TEST(test_count_bad_nan_and_inf_fail)
{
    double ref[] = {1, 2, 3, 4}, bound[] = {INFINITY, INFINITY, 1, 1}, got[] = {NAN, INFINITY, 3, 4};
    size_t first = 99;
    ck_assert_uint_eq(count_bad(got, ref, bound, 4, &first), 2);
    ck_assert_uint_eq(first, 0);
}
END_TEST

START_TEST(test_count_bad_respects_the_bound_exactly)
{
    double ref[] = {1.0, 1.0}, bound[] = {0.5, 0.5}, got[] = {1.5, 1.5000001};
    size_t first = 99;
    ck_assert_uint_eq(count_bad(got, ref, bound, 2, &first), 1);
    ck_assert_uint_eq(first, 1);
}
END_TEST

/* The lab 01 bound n * eps * (|A||x|) must accept plain double sums in any order and reject float. */
START_TEST(test_matvec_bound_accepts_double_rejects_float)
{
    double *A = malloc(sizeof(double) * 3 * 4099), *x = malloc(sizeof(double) * 4099);
    double ref[3], bound[3], dbl[3], flt[3];
    rng r;
    rng_seed(&r, 7);
    for (int i = 0; i < 3 * 4099; i++) A[i] = rng_uniform(&r, -1, 1);
    for (int j = 0; j < 4099; j++) x[j] = rng_uniform(&r, -1, 1);
    void *buf[3] = {A, x, NULL};
    matvec_reference((lab_shape){3, 4099, 0}, buf, ref, bound);
    for (int i = 0; i < 3; i++) {
        double fwd = 0, bwd = 0;
        float f = 0;
        for (int j = 0; j < 4099; j++) fwd += A[i * 4099 + j] * x[j];
        for (int j = 4098; j >= 0; j--) bwd += A[i * 4099 + j] * x[j];
        for (int j = 0; j < 4099; j++) f += (float)A[i * 4099 + j] * (float)x[j];
        ck_assert(fabs(fwd - ref[i]) <= bound[i]);
        ck_assert(fabs(bwd - ref[i]) <= bound[i]);
        dbl[i] = fwd;
        flt[i] = f;
    }
    ck_assert_uint_eq(count_bad(dbl, ref, bound, 3, NULL), 0);
    ck_assert_uint_eq(count_bad(flt, ref, bound, 3, NULL), 3);
    free(A);
    free(x);
}
END_TEST

/* ---------------------------------------------------------------- diagnosis */

static void diag_on(const double *got, const double *ref, size_t rows, size_t cols, double poison, int gpu, char *out)
{
    double bound[64];
    for (size_t i = 0; i < rows * cols; i++) bound[i] = 1e-12;
    diagnose_output(got, ref, bound, rows, cols, poison, gpu, out, 400);
}
static void diag(const double *got, const double *ref, size_t rows, size_t cols, double poison, char *out)
{
    diag_on(got, ref, rows, cols, poison, 0, out);
}

START_TEST(test_diagnose_untouched_output)
{
    double ref[8] = {1, 2, 3, 4, 5, 6, 7, 8}, got[8];
    char why[400];
    for (int i = 0; i < 8; i++) got[i] = -3.25e300;
    diag(got, ref, 1, 8, -3.25e300, why);
    ck_assert_ptr_nonnull(strstr(why, "nothing was written"));
    ck_assert_ptr_null(strstr(why, "launch")); /* a CPU lab launches nothing */
    /* on a GPU, untouched or all-zero output may be a launch that never started (0 blocks at n < 4) */
    diag_on(got, ref, 1, 8, -3.25e300, 1, why);
    ck_assert_ptr_nonnull(strstr(why, "a grid of 0 blocks"));
    double zero[1] = {0}, one[1] = {1};
    diag_on(zero, one, 1, 1, -3.25e300, 1, why);
    ck_assert_ptr_nonnull(strstr(why, "every element is zero"));
    ck_assert_ptr_nonnull(strstr(why, "a grid of 0 blocks"));
}
END_TEST

START_TEST(test_diagnose_nan_zero_factor_precision)
{
    double ref[8] = {1, 2, 3, 4, 5, 6, 7, 8}, got[8];
    char why[400];
    memcpy(got, ref, sizeof got);
    got[3] = NAN;
    diag(got, ref, 1, 8, 0.5, why);
    ck_assert_ptr_nonnull(strstr(why, "NaN"));
    memset(got, 0, sizeof got);
    diag(got, ref, 1, 8, 0.5, why);
    ck_assert_ptr_nonnull(strstr(why, "zero"));
    for (int i = 0; i < 8; i++) got[i] = 2 * ref[i];
    diag(got, ref, 1, 8, 0.5, why);
    ck_assert_ptr_nonnull(strstr(why, "same factor 2"));
    for (int i = 0; i < 8; i++) got[i] = ref[i] * (1 + 1e-7);
    diag(got, ref, 1, 8, 0.5, why);
    ck_assert_ptr_nonnull(strstr(why, "float"));
}
END_TEST

START_TEST(test_diagnose_last_columns_and_rows)
{
    double ref[24], got[24];
    char why[400];
    for (int i = 0; i < 24; i++) ref[i] = got[i] = i + 1;
    for (int r = 0; r < 4; r++) got[r * 6 + 5] = got[r * 6 + 4] = -1; /* 4 x 6: last 2 columns */
    diag(got, ref, 4, 6, 0.5, why);
    ck_assert_ptr_nonnull(strstr(why, "last 2 columns of 6"));
    for (int i = 0; i < 24; i++) got[i] = i >= 18 ? -1 : ref[i]; /* last row */
    diag(got, ref, 4, 6, 0.5, why);
    ck_assert_ptr_nonnull(strstr(why, "last 1 row of 4"));
}
END_TEST

START_TEST(test_diagnose_sizes_remainder_and_ones)
{
    lab_case c[5] = {{{8, 8, 0}, 0}, {{9, 12, 0}, 0}, {{7, 13, 0}, 0}, {{5, 6, 0}, 0}, {{3, 4, 0}, 0}};
    int ok[5] = {1, 1, 0, 0, 1};
    char why[256];
    diagnose_sizes(c, ok, 5, why, sizeof why);
    ck_assert_ptr_nonnull(strstr(why, "n is not a multiple of 4"));
    lab_case d[3] = {{{1, 8, 0}, 0}, {{9, 1, 0}, 0}, {{7, 13, 0}, 0}};
    int ok2[3] = {0, 0, 1};
    diagnose_sizes(d, ok2, 3, why, sizeof why);
    ck_assert_ptr_nonnull(strstr(why, "dimension of 1"));
    int all[3] = {0, 0, 0};
    diagnose_sizes(d, all, 3, why, sizeof why);
    ck_assert_str_eq(why, "");
    /* right on every square shape only: a dimension mixed up (a leading dimension) */
    lab_case e[5] = {{{37, 37, 37}, 0}, {{53, 29, 37}, 0}, {{64, 64, 64}, 0}, {{61, 67, 71}, 0}, {{13, 13, 13}, 0}};
    int ok3[5] = {1, 0, 1, 0, 1};
    diagnose_sizes(e, ok3, 5, why, sizeof why);
    ck_assert_ptr_nonnull(strstr(why, "right on every square shape"));
    int one_square_wrong[5] = {1, 0, 0, 0, 1};
    diagnose_sizes(e, one_square_wrong, 5, why, sizeof why);
    ck_assert_ptr_null(strstr(why, "square"));
}
END_TEST

/* ---------------------------------------------------------------- config */

START_TEST(test_config_parses_values_and_comments)
{
    config c = {.path = "test"};
    char err[256];
    ck_assert_int_eq(config_parse(&c, "# comment\nrows = 0.30  # a fraction\n\n cflags = -O3 -march=native\nrows=0.5\n",
                                  err, sizeof err), 0);
    ck_assert_double_eq(config_num(&c, "rows"), 0.5); /* the last definition wins */
    ck_assert_str_eq(config_str(&c, "cflags"), "-O3 -march=native");
    ck_assert_ptr_null(config_str(&c, "missing"));
    ck_assert_double_eq(config_num_or(&c, "missing", 7), 7);
    config_free(&c);
}
END_TEST

START_TEST(test_config_rejects_a_line_without_equals)
{
    config c = {.path = "thresholds.conf"};
    char err[256];
    ck_assert_int_eq(config_parse(&c, "rows = 1\nthis is not a setting\n", err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "line 2"));
}
END_TEST

START_TEST(test_lab_thresholds_are_fractions)
{
    for (int i = 0; i < LAB.nstages; i++) {
        config c = {0};
        char err[256], path[256];
        snprintf(path, sizeof path, "grading/%s/thresholds.conf", LAB.id);
        ck_assert_msg(config_load(&c, path, err, sizeof err) == 0, "%s", err);
        double f = config_num(&c, LAB.stages[i].name);
        ck_assert_msg(f > 0 && f < 1, "%s: %s = %g is not a fraction of the ceiling", path, LAB.stages[i].name, f);
        config_free(&c);
    }
}
END_TEST

/* The PTX reader: a kernel's own instructions (past labels, predicates, directives and vector
 * operands' braces) and those of the device functions it calls, not those of other kernels or
 * of a function it only declares. */
START_TEST(test_ptx_technique_reads_kernels_and_their_calls)
{
    static const char ptx[] =
        ".version 8.0\n.target sm_90\n"
        ".extern .func (.param .b32 func_retval0) vprintf(.param .b64 p0, .param .b64 p1);\n"
        ".func  (.param .b32 func_retval0) _Z6reducef(.param .b32 _Z6reducef_param_0)\n{\n"
        "\t.reg .b32 %r<3>;\n\tld.param.f32 %f1, [_Z6reducef_param_0];\n"
        "\tshfl.sync.down.b32 %r1|%p1, %r2, 16, 31, -1;\n\tst.param.b32 [func_retval0+0], %r1;\n\tret;\n}\n"
        ".visible .entry _Z5vec4sPKfPf(.param .u64 p0, .param .u64 p1)\n{\n"
        "\t.reg .f32 %f<5>;\n$L__BB0_2:\n\t.loc 1 12 3\n"
        "\t@%p1 ld.global.nc.v4.f32 \t{%f1, %f2, %f3, %f4}, [%rd1];\n"
        "\tst.global.f32 [%rd2], %f1;\n\tret;\n}\n"
        ".visible .entry _Z5warpsPKfPf(.param .u64 p0)\n{\n"
        "\t{ // callseq 0\n\t.param .b32 param0;\n\tcall.uni (retval0), \n_Z6reducef, \n(param0);\n\t} // callseq 0\n"
        "\tret;\n}\n"
        ".visible .entry _Z6scalarPKfPf(.param .u64 p0)\n{\n\tld.global.f32 %f1, [%rd1];\n"
        "\t// shfl.sync.down.b32 in a comment is not an instruction\n\tret;\n}\n";
    ck_assert_int_eq(ptx_kernel_uses(ptx, "_Z5vec4sPKfPf", "ld.global*.v2.* ld.global*.v4.*"), 1);
    ck_assert_int_eq(ptx_kernel_uses(ptx, "_Z5vec4sPKfPf", "st.global*.v4.*"), 0);
    ck_assert_int_eq(ptx_kernel_uses(ptx, "_Z5vec4sPKfPf", "shfl.sync.*"), 0);
    ck_assert_int_eq(ptx_kernel_uses(ptx, "_Z5warpsPKfPf", "shfl.sync.*"), 1); /* through the call */
    ck_assert_int_eq(ptx_kernel_uses(ptx, "_Z6scalarPKfPf", "shfl.sync.* ld.global*.v4.*"), 0);
    ck_assert_int_eq(ptx_kernel_uses(ptx, "vprintf", "ld.*"), -1); /* declared, not defined */
    ck_assert_int_eq(ptx_kernel_uses(ptx, "_Z7missingv", "ld.*"), -1);
}
END_TEST

/* The bank-conflict reader: a 32 x 32 tile read down a column conflicts 8-way at best (blockDim.x
 * 8), padded to 33 not at all; an address read from memory is not followed; a float4 a lane, 32
 * lanes along a row, is served in four conflict-free phases. */
START_TEST(test_ptx_conflicts_follow_a_warps_addresses)
{
    static const char ptx[] =
        ".visible .entry column(.param .u64 p0)\n{\n"
        "\t.shared .align 4 .b8 tileA[4096];\n"
        "\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, %tid.y;\n\tmov.u32 %r3, tileA;\n"
        "\tshl.b32 %r4, %r1, 7;\n\tshl.b32 %r5, %r2, 2;\n\tadd.s32 %r6, %r3, %r4;\n\tadd.s32 %r7, %r6, %r5;\n"
        "\tst.shared.f32 [%r7+0], %f9;\n\tld.shared.f32 %f1, [%r7+256];\n\tret;\n}\n"
        ".visible .entry padded(.param .u64 p0)\n{\n"
        "\t.shared .align 4 .b8 tileB[4224];\n"
        "\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, %tid.y;\n\tmov.u32 %r3, tileB;\n"
        "\tmad.lo.s32 %r4, %r1, 132, %r3;\n\tshl.b32 %r5, %r2, 2;\n\tadd.s32 %r7, %r4, %r5;\n"
        "\tld.shared.f32 %f1, [%r7];\n\tret;\n}\n"
        ".visible .entry loaded(.param .u64 p0)\n{\n"
        "\tld.param.u64 %rd1, [p0];\n\tld.global.u32 %r9, [%rd1];\n\tshl.b32 %r10, %r9, 2;\n"
        "\tld.shared.f32 %f2, [%r10];\n\tret;\n}\n"
        ".visible .entry rows4(.param .u64 p0)\n{\n"
        "\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r3, tileA;\n\tshl.b32 %r4, %r1, 4;\n\tadd.s32 %r11, %r3, %r4;\n"
        "\tld.shared.v4.f32 {%f1, %f2, %f3, %f4}, [%r11];\n\tret;\n}\n";
    int acc, ops;
    char at[200];
    ck_assert_int_eq(ptx_kernel_conflicts(ptx, "column", &acc, &ops, at, sizeof at), 8);
    ck_assert_int_eq(acc, 2);
    ck_assert_msg(strstr(at, ".shared.f32 [%r7"), "%s", at); /* the first of the two equally bad */
    ck_assert_int_eq(ptx_kernel_conflicts(ptx, "padded", &acc, &ops, at, sizeof at), 1);
    ck_assert_int_eq(ptx_kernel_conflicts(ptx, "loaded", &acc, &ops, at, sizeof at), 0);
    ck_assert_int_eq(acc, 0);
    ck_assert_int_eq(ops, 1);
    ck_assert_int_eq(ptx_kernel_conflicts(ptx, "rows4", &acc, &ops, at, sizeof at), 1);
    ck_assert_int_eq(ptx_kernel_conflicts(ptx, "nothing", &acc, &ops, at, sizeof at), -1);
    /* the words between lanes 0 and 1 of a scalar access: a row of 32 floats apart down a column,
     * 33 padded; none followed where the address was loaded; a float4 a lane is no scalar access */
    ck_assert_int_eq(ptx_kernel_stride(ptx, "column"), 32);
    ck_assert_int_eq(ptx_kernel_stride(ptx, "padded"), 33);
    ck_assert_int_eq(ptx_kernel_stride(ptx, "loaded"), 0);
    ck_assert_int_eq(ptx_kernel_stride(ptx, "rows4"), 0);
    ck_assert_int_eq(ptx_kernel_stride(ptx, "nothing"), -1);
}
END_TEST

/* The fma reader: in a loop, two accumulators are two chains; a 2 x 2 tile's four fmas reuse both
 * their A and their B values (outer products), a column's reuse only B; fmas outside any loop
 * count for nothing. */
START_TEST(test_ptx_fma_chains_and_outer_products)
{
    static const char ptx[] =
        ".visible .entry tile2x2(.param .u64 p0)\n{\n"
        "\tfma.rn.f32 %f90, %f1, %f2, %f3;\n"
        "$L__BB0_1:\n"
        "\tld.shared.f32 %f10, [%r1];\n\tld.shared.f32 %f11, [%r1+4];\n"
        "\tld.shared.f32 %f20, [%r2];\n\tld.shared.f32 %f21, [%r2+4];\n"
        "\tfma.rn.f32 %f30, %f10, %f20, %f30;\n\tfma.rn.f32 %f31, %f10, %f21, %f31;\n"
        "\tfma.rn.f32 %f32, %f11, %f20, %f32;\n\tfma.rn.f32 %f33, %f11, %f21, %f33;\n"
        "\tsetp.lt.s32 %p1, %r3, %r4;\n\t@%p1 bra $L__BB0_1;\n\tret;\n}\n"
        ".visible .entry column(.param .u64 p0)\n{\n"
        "$L__BB1_1:\n"
        "\tld.shared.f32 %f20, [%r2];\n"
        "\tfma.rn.f32 %f40, %f10, %f20, %f30;\n\tfma.rn.f32 %f30, %f12, %f22, %f40;\n"
        "\tfma.rn.f32 %f31, %f11, %f20, %f31;\n"
        "\t@%p1 bra $L__BB1_1;\n\tret;\n}\n";
    int chains, outer;
    ck_assert_int_eq(ptx_kernel_fma(ptx, "tile2x2", &chains, &outer), 0);
    ck_assert_int_eq(chains, 4);
    ck_assert_int_eq(outer, 4);
    ck_assert_int_eq(ptx_kernel_fma(ptx, "column", &chains, &outer), 0);
    ck_assert_int_eq(chains, 2); /* %f30 through %f40 is one chain, %f31 the other */
    ck_assert_int_eq(outer, 0);  /* %f20 feeds two fmas, but %f10 and %f11 one each */
    ck_assert_int_eq(ptx_kernel_fma(ptx, "none", &chains, &outer), -1);
}
END_TEST

/* The divergence reader: the first step of an interleaved tree (tid % 2 == 0) splits every warp
 * of a 256-thread block; sequential addressing's first step (tid < 128) splits none, and a read
 * guarded inside a branch only warp 0 enters (warp == 0, then lane < 8) splits warp 0 alone. */
START_TEST(test_ptx_divergence_counts_split_warps)
{
    static const char ptx[] =
        ".visible .entry interleaved(.param .u64 p0)\n{\n"
        "\t.shared .align 4 .b8 s[1024];\n"
        "\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, 1;\n\tshl.b32 %r3, %r2, 1;\n\trem.u32 %r4, %r1, %r3;\n"
        "\tsetp.ne.s32 %p1, %r4, 0;\n\t@%p1 bra $L__BB0_2;\n"
        "\tld.shared.f32 %f1, [%r5];\n\tst.shared.f32 [%r5], %f1;\n$L__BB0_2:\n\tret;\n}\n"
        ".visible .entry sequential(.param .u64 p0)\n{\n"
        "\tmov.u32 %r1, %tid.x;\n\tsetp.gt.u32 %p1, %r1, 127;\n\t@%p1 bra $L__BB1_2;\n"
        "\tld.shared.f32 %f1, [%r5];\n$L__BB1_2:\n\tret;\n}\n"
        ".visible .entry warp0(.param .u64 p0)\n{\n"
        "\tmov.u32 %r1, %tid.x;\n\tshr.u32 %r2, %r1, 5;\n\tand.b32 %r3, %r1, 31;\n"
        "\tsetp.ne.s32 %p1, %r2, 0;\n\t@%p1 bra $L__BB2_3;\n"
        "\tsetp.ge.u32 %p2, %r3, 8;\n\t@%p2 bra $L__BB2_3;\n\tld.shared.f32 %f1, [%r5];\n"
        "$L__BB2_3:\n\tret;\n}\n";
    int nb;
    char at[200];
    ck_assert_int_eq(ptx_kernel_divergence(ptx, "interleaved", &nb, at, sizeof at), 8);
    ck_assert_int_eq(nb, 1);
    ck_assert_msg(strstr(at, "@%p1 bra"), "%s", at);
    ck_assert_int_eq(ptx_kernel_divergence(ptx, "sequential", &nb, at, sizeof at), 0);
    ck_assert_int_eq(ptx_kernel_divergence(ptx, "warp0", &nb, at, sizeof at), 1);
    ck_assert_int_eq(ptx_kernel_divergence(ptx, "nothing", &nb, at, sizeof at), -1);
}
END_TEST

/* The pass reader: three loops over global memory with a shuffle between each are three passes;
 * the same reads with no synchronisation between them are one; parameters are not memory. */
START_TEST(test_ptx_passes_cut_at_synchronisations)
{
    static const char ptx[] =
        ".visible .entry three(.param .u64 p0)\n{\n\tld.param.u64 %rd1, [p0];\n"
        "$L__BB0_1:\n\tld.global.nc.f32 %f1, [%rd1];\n\t@%p1 bra $L__BB0_1;\n"
        "\tshfl.sync.bfly.b32 %r1|%p2, %r2, 16, 31, -1;\n"
        "$L__BB0_2:\n\tld.global.nc.f32 %f2, [%rd1];\n\t@%p1 bra $L__BB0_2;\n"
        "\tbar.sync 0;\n"
        "$L__BB0_3:\n\tld.f32 %f3, [%rd1];\n\tst.global.f32 [%rd1], %f3;\n\t@%p1 bra $L__BB0_3;\n\tret;\n}\n"
        ".visible .entry one(.param .u64 p0)\n{\n\tld.param.u64 %rd1, [p0];\n"
        "\tld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1];\n\tld.global.nc.f32 %f5, [%rd1+16];\n"
        "\tshfl.sync.bfly.b32 %r1|%p2, %r2, 16, 31, -1;\n\tst.global.f32 [%rd1], %f5;\n\tret;\n}\n";
    ck_assert_int_eq(ptx_kernel_passes(ptx, "three"), 3);
    ck_assert_int_eq(ptx_kernel_passes(ptx, "one"), 1);
    ck_assert_int_eq(ptx_kernel_passes(ptx, "nothing"), -1);
    /* a figure thresholds.conf may name, and one it may not (a typo would judge nothing) */
    ck_assert_int_eq(technique_known(" @passes<=2"), 1);
    ck_assert_int_eq(technique_known("shfl.sync.* !bar.sync*"), 1);
    ck_assert_int_eq(technique_known("@pases<=2"), 0);
}
END_TEST

/* The x86-64 reader: independent chains of adds in a loop, by lanes, through a call; a register
 * reloaded in the loop is no chain, and one summed outside any loop counts for nothing. */
START_TEST(test_x86_chains_counts_accumulators_in_loops)
{
    static const char text[] =
        "0000000000000000 <one>:\n"
        "   0:\tvxorpd %xmm0,%xmm0,%xmm0\n"
        "  10:\tvmovupd (%rdi,%rax,1),%ymm4\n"
        "  15:\tvmulpd (%rdx,%rax,1),%ymm4,%ymm1\n"
        "  1a:\tvaddsd %xmm1,%xmm0,%xmm0\n"
        "  1e:\tvunpckhpd %xmm1,%xmm1,%xmm2\n"
        "  22:\tvaddsd %xmm0,%xmm2,%xmm0\n"
        "  26:\tjne    10 <one+0x10>\n"
        "  28:\tvaddsd %xmm3,%xmm5,%xmm5\n"
        "  2c:\tvaddsd %xmm3,%xmm6,%xmm6\n"
        "  2f:\tret\n"
        "\n"
        "0000000000000030 <four>:\n"
        "  30:\tvmovsd (%rsi),%xmm1\n"
        "  34:\tvmulsd (%rax),%xmm1,%xmm1\n"
        "  38:\tvaddsd %xmm1,%xmm0,%xmm0\n"
        "  3c:\tvaddsd %xmm1,%xmm4,%xmm4\n"
        "  40:\taddsd  %xmm1,%xmm2\n"
        "  44:\tvfmadd231sd (%rax),%xmm6,%xmm3\n"
        "  48:\tvmovsd (%rdi),%xmm7\n"
        "  4c:\tvaddsd %xmm1,%xmm7,%xmm7\n"
        "  4f:\tjg     30 <four>\n"
        "\n"
        "0000000000000050 <wide>:\n"
        "  50:\tvfmadd231pd (%rdi,%rax,8),%zmm1,%zmm0{%k1}\n"
        "  56:\tjne    50 <wide>\n"
        "\n"
        "0000000000000060 <calls>:\n"
        "  60:\tcall   65 <calls+0x5>\n"
        "\t\t\t61: R_X86_64_PLT32\twide-0x4\n"
        "  65:\tret\n";
    ck_assert_int_eq(x86_most_chains(text, "one"), 1);   /* one sum, however wide its products */
    ck_assert_int_eq(x86_most_chains(text, "four"), 4);  /* xmm0, xmm4, xmm2 (SSE), xmm3 (FMA); xmm7 reloaded */
    ck_assert_int_eq(x86_most_chains(text, "wide"), 8);  /* one zmm of doubles: 8 lanes */
    ck_assert_int_eq(x86_most_chains(text, "calls"), 8); /* through its call */
    ck_assert_int_eq(x86_most_chains(text, "none"), -1);
}
END_TEST

/* ---------------------------------------------------------------- JSON */

START_TEST(test_json_escapes_and_nonfinite)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    json j;
    json_open(&j, f);
    json_begin_object(&j);
    json_kv_string(&j, "msg", "a \"quote\"\nnew line\t\\ \x01 \xc3\xa9");
    json_kv_number(&j, "nan", NAN);
    json_kv_number(&j, "x", 2.5);
    json_key(&j, "tests");
    json_begin_array(&j);
    json_begin_object(&j);
    json_kv_string(&j, "name", "a");
    json_end_object(&j);
    json_begin_object(&j);
    json_kv_string(&j, "name", "b");
    json_end_object(&j);
    json_end_array(&j);
    json_end_object(&j);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(text, "\"a \\\"quote\\\"\\nnew line\\t\\\\ \\u0001 ??\""));
    ck_assert_ptr_nonnull(strstr(text, "\"nan\": null"));
    ck_assert_ptr_nonnull(strstr(text, "\"x\": 2.5"));
    ck_assert_ptr_nonnull(strstr(text, "[\n    {\"name\": \"a\"},\n    {\"name\": \"b\"}\n  ]"));
    free(text);
}
END_TEST

/* ---------------------------------------------------------------- random numbers, machine */

START_TEST(test_rng_replays_from_seed)
{
    rng a, b, c;
    rng_seed(&a, 42);
    rng_seed(&b, 42);
    rng_seed(&c, 43);
    int differ = 0;
    for (int i = 0; i < 100; i++) {
        double x = rng_uniform(&a, -1, 1);
        ck_assert_double_eq(x, rng_uniform(&b, -1, 1));
        ck_assert(x >= -1 && x < 1);
        differ |= x != rng_uniform(&c, -1, 1);
        int k = rng_int(&a, 3, 5);
        rng_int(&b, 3, 5);
        ck_assert(k >= 3 && k <= 5);
    }
    ck_assert(differ);
}
END_TEST

START_TEST(test_machine_key_is_stable_and_llc_read)
{
    machine m1, m2;
    machine_read(&m1);
    machine_read(&m2);
    ck_assert_str_eq(m1.key, m2.key);
    ck_assert_uint_eq(strlen(m1.key), 16);
    ck_assert(m1.llc_bytes >= (1 << 20));
    ck_assert(m1.cores >= 1);
}
END_TEST

/* The cache sizes are judged past: measured once (never above what the machine reports, and never
 * under 8 MiB where it was cut), then read back from its file. */
START_TEST(test_usable_llc_is_measured_once_and_never_above_the_reported)
{
    machine m;
    machine_read(&m);
    ck_assert_int_eq(sh("rm -rf build/tmp/llc-test"), 0);
    size_t first = usable_llc("build/tmp/llc-test", &m, 0);
    ck_assert(first <= m.llc_bytes);
    ck_assert(first == m.llc_bytes || first >= ((size_t)8 << 20));
    ck_assert_int_eq(sh("grep -q '^llc_bytes = %zu$' build/tmp/llc-test/%s-llc.conf", first, m.key), 0);
    ck_assert_int_eq(sh("echo 'llc_bytes = 12582912' > build/tmp/llc-test/%s-llc.conf", m.key), 0);
    ck_assert_uint_eq(usable_llc("build/tmp/llc-test", &m, 0), 12582912); /* read back, not measured */
}
END_TEST

START_TEST(test_calibration_is_cached_per_machine)
{
    machine m;
    machine_read(&m);
    bandwidth first, again;
    ck_assert_int_eq(sh("rm -rf build/tmp/calib-test"), 0);
    m.llc_bytes = 4 << 20; /* keep the test quick */
    ck_assert_int_eq(calibration("build/tmp/calib-test", &m, 1, 0, &first), 0);
    ck_assert(first.stream_gbs > 0.1 && first.read_gbs > 0.1);
    /* one chain of adds: one add each 3-5 cycles of a 1-6 GHz core, never one a cycle or more */
    ck_assert_msg(first.chain_gadds > 0.15 && first.chain_gadds < 3.0, "chain: %.3f G adds/s", first.chain_gadds);
    ck_assert_int_eq(calibration("build/tmp/calib-test", &m, 1, 0, &again), 0); /* read back, not measured */
    ck_assert_double_eq_tol(first.stream_gbs, again.stream_gbs, 1e-3);
    strcpy(m.key, "0000000000000000"); /* another machine: its own file */
    ck_assert_int_eq(calibration("build/tmp/calib-test", &m, 1, 0, &again), 0);
    ck_assert_int_eq(sh("test $(ls build/tmp/calib-test | wc -l) = 2"), 0);
}
END_TEST

/* A reduction's reference from the seed (vary_sum) is the sum of what vary_fill writes: exactly
 * for quantised floats (every order exact), and another seed gives another sum. */
START_TEST(test_vary_sum_is_the_sum_of_the_fill)
{
    size_t n = (3u << 20) + 7; /* over the parallel threshold, not a round number */
    float *f = malloc(n * sizeof *f);
    vary_fill(f, F32, n, 0x1234, -1, 1, 0x1p-6);
    double sum = 0;
    for (size_t i = 0; i < n; i++) sum += f[i];
    ck_assert(sum == vary_sum(F32, n, 0x1234, -1, 1, 0x1p-6));
    ck_assert(sum != vary_sum(F32, n, 0x1235, -1, 1, 0x1p-6));
    double *d = (double *)f, dsum = 0;
    vary_fill(d, F64, n / 2, 99, -2, 3, 0);
    for (size_t i = 0; i < n / 2; i++) dsum += d[i];
    ck_assert_double_eq_tol(dsum, vary_sum(F64, n / 2, 99, -2, 3, 0), 1e-9 * (double)n);
    free(f);
}
END_TEST

/* ---------------------------------------------------------------- the pipeline timeline */

START_TEST(test_timeline_copy_time_is_the_union_of_copies)
{
    /* two copies in overlap (0-0.6 and 0.5-1.2 ms: under way 1.2 ms), two copies out apart
     * (1.5-2.0 and 2.5-3.0 ms: 1.0 ms); alone, each direction takes 1.0 ms */
    trace_event ev[] = {{1, TRACE_H2D, 0.0, 0.6e-3},    {2, TRACE_H2D, 0.5e-3, 1.2e-3},
                        {1, TRACE_KERNEL, 0.6e-3, 1.5e-3}, {2, TRACE_KERNEL, 1.5e-3, 2.5e-3},
                        {2, TRACE_D2H, 2.5e-3, 3.0e-3},  {1, TRACE_D2H, 1.5e-3, 2.0e-3}};
    stage_result r = {.timed = 1, .seconds = 3e-3, .pipe = {1e-3, 2e-3, 1e-3, 0}, .trace = ev, .ntrace = 6};
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    report_timeline(&r, "pipelined", f);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(text, "ideal 2.00 ms = max(copy in 1.00, kernel 2.00, copy out 1.00), serial 4.00 ms"));
    ck_assert_ptr_nonnull(strstr(text, "stream 1  |"));
    ck_assert_ptr_nonnull(strstr(text, "copies under way: in 1.20 ms, out 1.00 ms"));
    ck_assert_ptr_nonnull(strstr(text, "at least 83% and 100% of pinned"));
    free(text);
}
END_TEST

/* Netlib's libblas-dev ships cblas.h without OpenBLAS: the set-up must see that OpenBLAS does not
 * link, and name the package (DEPS_INSTALL=no: report, install nothing). */
START_TEST(test_deps_sees_cblas_header_without_openblas)
{
    int rc = sh("CC=tests/fixtures/cc-without-openblas DEPS_INSTALL=no sh common/tools/deps.sh grade > build/tmp-deps.log 2>&1");
    char *log = slurp("build/tmp-deps.log");
    ck_assert_int_eq(rc, 2);
    ck_assert_msg(log && strstr(log, "libopenblas-dev") && strstr(log, "apt-get install -y"),
                  "deps.sh said: %s", log ? log : "(nothing)");
    free(log);
    ck_assert_int_eq(sh("DEPS_INSTALL=no sh common/tools/deps.sh grade > build/tmp-deps.log 2>&1"), 0);
}
END_TEST

/* An optional package apt-get cannot install (no network, say) is tried once, then not again for
 * 12 hours: the second run says so and runs no apt-get. A stand-in apt-get that fails and counts
 * its calls, on a PATH of the tools deps.sh needs and no gnuplot; deps.sh installs only as root. */
START_TEST(test_deps_does_not_retry_a_failed_optional_install)
{
    if (geteuid() != 0) {
        printf("deps.sh's retry: skipped: not root (deps.sh installs nothing then)\n");
        return;
    }
    char top[4096];
    ck_assert_ptr_nonnull(getcwd(top, sizeof top));
    ck_assert_int_eq(sh("rm -rf build/tmp/deps-offline && mkdir -p build/tmp/deps-offline/bin && cd build/tmp/deps-offline && "
                        "for t in sh gcc nm readelf objcopy addr2line as ld mktemp rm find cat mkdir chmod id; do "
                        "p=$(command -v $t) && ln -s \"$p\" bin/$t || exit 1; done"),
                     0);
    FILE *f = fopen("build/tmp/deps-offline/bin/apt-get", "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "#!/bin/sh\necho \"$*\" >> %s/build/tmp/deps-offline/apt-calls\nexit 100\n", top);
    fclose(f);
    ck_assert_int_eq(chmod("build/tmp/deps-offline/bin/apt-get", 0755), 0);
    const char *run = "cd build/tmp/deps-offline && env -u DEPS_INSTALL -u CC PATH=$PWD/bin sh ../../../common/tools/deps.sh grade";
    ck_assert_int_eq(sh("%s > first.log 2>&1", run), 0);
    ck_assert_int_eq(sh("%s > second.log 2>&1", run), 0);
    char *first = slurp("build/tmp/deps-offline/first.log"), *second = slurp("build/tmp/deps-offline/second.log");
    char *calls = slurp("build/tmp/deps-offline/apt-calls");
    ck_assert_msg(first && strstr(first, "could not install: gnuplot-nox"), "first run: %s", first ? first : "(nothing)");
    ck_assert_msg(second && strstr(second, "tried again in 12 hours") && !strstr(second, "installing"), "second run: %s",
                  second ? second : "(nothing)");
    int lines = 0;
    for (const char *c = calls; c && *c; c++) lines += *c == '\n';
    ck_assert_msg(lines == 1, "apt-get was run %d times, not once: %s", lines, calls ? calls : "");
    free(first);
    free(second);
    free(calls);
}
END_TEST

/* The CPU time a runner used, from the kernel's count in /proc: a child that keeps two threads
 * busy for 0.4 s of wall time has used about 0.8 s (one CPU where this machine has only one), or
 * waited, ready, for the CPU a neighbour held. */
START_TEST(test_runner_cpu_seconds_counts_every_thread)
{
    int cpus = sysconf(_SC_NPROCESSORS_ONLN) > 1 ? 2 : 1;
    int go[2];
    ck_assert_int_eq(pipe(go), 0);
    pid_t pid = fork();
    if (pid == 0) {
        char c;
        if (read(go[0], &c, 1) != 1) _exit(1);
        volatile double sink = 0;
#pragma omp parallel num_threads(2) reduction(+ : sink)
        for (double t0 = now_s(); now_s() - t0 < 0.4;) sink += 1;
        _exit(sink < 0);
    }
    runner_proc p = {.pid = pid};
    double before = runner_cpu_seconds(&p);
    ck_assert_int_eq(write(go[1], "x", 1), 1);
    usleep(300000);
    double during = runner_cpu_seconds(&p), cpu, waited;
    ck_assert_int_eq(runner_sched_seconds(&p, &cpu, &waited), 0);
    ck_assert_msg(cpu >= during && waited >= 0, "schedstat: %.3f s on a CPU, %.3f s waiting", cpu, waited);
    ck_assert(before >= 0 && before < 0.05);
    /* beside a busy neighbour the threads get less CPU and wait, ready, for the rest: counted together */
    ck_assert_msg(during + waited > 0.15 * cpus && during < 0.45 * cpus, "%.2f s of CPU (and %.2f s waiting for one) "
                  "after 0.3 s of %d threads", during, waited, cpus);
    int status;
    waitpid(pid, &status, 0);
    p.pid = pid;
    ck_assert(runner_cpu_seconds(&p) < 0); /* reaped: no such process */
    close(go[0]);
    close(go[1]);
}
END_TEST

/* The runner's GPU follows the grader's CUDA_VISIBLE_DEVICES where that names one device (grading
 * on every GPU of a node at once), and is device 0 otherwise: never a list, never anything but an
 * index or a UUID. */
START_TEST(test_runner_gpu_is_one_named_device_or_zero)
{
    ck_assert_str_eq(runner_gpu(NULL), "0");
    ck_assert_str_eq(runner_gpu(""), "0");
    ck_assert_str_eq(runner_gpu("3"), "3");
    ck_assert_str_eq(runner_gpu("GPU-8c1f2e3a-0b4d-4e5f-9a6b-7c8d9e0f1a2b"), "GPU-8c1f2e3a-0b4d-4e5f-9a6b-7c8d9e0f1a2b");
    ck_assert_str_eq(runner_gpu("MIG-GPU-8c1f2e3a-0b4d-4e5f-9a6b-7c8d9e0f1a2b/1/0"), "MIG-GPU-8c1f2e3a-0b4d-4e5f-9a6b-7c8d9e0f1a2b/1/0");
    ck_assert_str_eq(runner_gpu("0,1"), "0");
    ck_assert_str_eq(runner_gpu("1 LD_PRELOAD=x"), "0");
    ck_assert_str_eq(runner_gpu("1\nLD_PRELOAD=/tmp/x.so"), "0");
    char longer[80];
    memset(longer, '7', sizeof longer - 1), longer[sizeof longer - 1] = 0;
    ck_assert_str_eq(runner_gpu(longer), "0");
}
END_TEST

/* compute-sanitizer's report, as its documentation shows one, in words: the tool, the first finding
 * at the student's file and line (not the compiled copy's path, not the host's backtrace), the
 * summary; its banner and a clean summary are no finding. */
START_TEST(test_cuda_sanitizer_report_names_the_students_line)
{
    const char *found = "========= COMPUTE-SANITIZER\n"
                        "========= Invalid __global__ write of size 4 bytes\n"
                        "=========     at add_unchecked(int, const float *, const float *, float *)+0x80 in "
                        "/tmp/wb/build/scratch/x/04-warp-reduction/student.cu:10\n"
                        "=========     by thread (96,0,0) in block (3,0,0)\n"
                        "=========     Address 0x7f3a40000fa0 is out of bounds\n"
                        "=========     Saved host backtrace up to driver entry point at kernel launch time\n"
                        "=========         Host Frame: [0x2dfbef] in libcuda.so.1\n"
                        "=========\n"
                        "========= Invalid __global__ write of size 4 bytes\n"
                        "=========     at add_unchecked(int, const float *, const float *, float *)+0x80 in "
                        "/tmp/wb/build/scratch/x/04-warp-reduction/student.cu:10\n"
                        "=========\n"
                        "========= ERROR SUMMARY: 2 errors\n";
    char out[1400];
    ck_assert_int_eq(cuda_sanitizer_report(found, "memcheck", "reduce.cu", out, sizeof out), 1);
    ck_assert_msg(strstr(out, "compute-sanitizer --tool memcheck:") && strstr(out, "Invalid __global__ write of size 4") &&
                  strstr(out, "+0x80 in reduce.cu:10") && strstr(out, "by thread (96,0,0) in block (3,0,0)") &&
                  strstr(out, "ERROR SUMMARY: 2 errors") && !strstr(out, "Host Frame") && !strstr(out, "/tmp/wb"), "%s", out);
    ck_assert_ptr_eq(strstr(strstr(out, "write of size") + 1, "write of size"), NULL); /* the first finding alone */
    const char *clean = "========= COMPUTE-SANITIZER\n========= ERROR SUMMARY: 0 errors\n";
    ck_assert_int_eq(cuda_sanitizer_report(clean, "racecheck", "reduce.cu", out, sizeof out), 0);
    ck_assert_int_eq(cuda_sanitizer_report("a student's own printf\n", "initcheck", "reduce.cu", out, sizeof out), 0);
    ck_assert_int_eq(cuda_sanitizer_report(NULL, "synccheck", "reduce.cu", out, sizeof out), 0);
    /* how the program ended is not a finding (an H100, 2026-11-28: a wrong result under memcheck, and
     * racecheck's target killed by the filter, were both called bugs): the runner's end says it */
    const char *ended = "========= COMPUTE-SANITIZER\n========= Error: process didn't terminate successfully\n"
                        "========= Target application returned an error\n========= ERROR SUMMARY: 0 errors\n";
    ck_assert_int_eq(cuda_sanitizer_report(ended, "racecheck", "reduce.cu", out, sizeof out), 0);
}
END_TEST

/* Nsight Compute's raw CSV page (`ncu --csv --page raw`): a header, a units line, a row a kernel, a
 * kernel's name quoted with its commas; durations to microseconds; a metric the page lacks is NAN;
 * the three largest stalls in order. And a recorded profile read back. */
START_TEST(test_ncu_page_read_and_recorded_profile)
{
    const char *csv = "==PROF== Connected to process 123\n"
                      "\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\",\"dram__throughput.avg.pct_of_peak_sustained_elapsed\","
                      "\"launch__registers_per_thread\",\"smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio\","
                      "\"smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio\","
                      "\"smsp__average_warps_issue_stalled_wait_per_issue_active.ratio\","
                      "\"smsp__average_warps_issue_stalled_selected_per_issue_active.ratio\"\n"
                      "\"\",\"\",\"nsecond\",\"%\",\"register/thread\",\"ratio\",\"ratio\",\"ratio\",\"ratio\"\n"
                      "\"0\",\"void tree_kernel<(tree)2>(int, const float *, float *)\",\"1,234\",\"81.5\",\"32\",\"12.5\",\"3.25\",\"0.5\",\"1\"\n"
                      "\"1\",\"final_kernel\",\"2500\",\"3.1\",\"40\",\"0.25\",\"6\",\"1.5\",\"1\"\n";
    ncu_kernel k[4];
    ck_assert_int_eq(ncu_read(csv, k, 4), 2);
    ck_assert_str_eq(k[0].name, "void tree_kernel<(tree)2>(int, const float *, float *)");
    ck_assert_str_eq(k[1].name, "final_kernel");
    ck_assert(fabs(k[1].value[0] - 2.5) < 1e-9); /* 2500 ns */
    ck_assert(fabs(k[0].value[0] - 1.234) < 1e-9); /* "1,234" ns: thousands separated */
    ck_assert(fabs(k[0].value[1] - 81.5) < 1e-9 && k[0].value[5] == 32);
    ck_assert(isnan(k[0].value[2])); /* not on the page */
    ck_assert_str_eq(ncu_stalls[k[0].stall[0]].reason, "long_scoreboard");
    ck_assert_str_eq(ncu_stalls[k[0].stall[1]].reason, "barrier");
    ck_assert_str_eq(ncu_stalls[k[0].stall[2]].reason, "selected");
    ck_assert_str_eq(ncu_stalls[k[1].stall[0]].reason, "barrier");
    ck_assert_int_eq(ncu_read("==ERROR== ERR_NVGPUCTRPERM\n", k, 4), 0);
    ck_assert_int_eq(ncu_read(NULL, k, 4), 0);
    const char *rec = "kernel 0 tree_kernel\ngpu__time_duration.sum 1.5\nlaunch__registers_per_thread 32\n"
                      "kernel 1 final_kernel\ngpu__time_duration.sum 2.5\n";
    ck_assert(ncu_recorded(rec, 0, "launch__registers_per_thread") == 32);
    ck_assert(ncu_recorded(rec, 1, "gpu__time_duration.sum") == 2.5);
    ck_assert(isnan(ncu_recorded(rec, 1, "launch__registers_per_thread")));
    ck_assert(isnan(ncu_recorded(NULL, 0, "gpu__time_duration.sum")));
    /* a metric of two names (by ncu version) is recorded by its first */
    ck_assert(ncu_recorded("kernel 0 k\ndram__throughput.x 84.5\n", 0, "dram__throughput.x|gpu__dram_throughput.x") == 84.5);
}
END_TEST

/* A page as Nsight Compute 2025.3.1 wrote it on an H200 (make profile LAB=04 STAGE=mv_warp of the
 * reference, 2026-11-28): 569 columns, durations in "ns", the DRAM figure named
 * gpu__dram_throughput. The first reader kept 512 columns and knew "nsecond" only: it showed the
 * occupancy, the compute throughput and every stall as not measured, and microseconds as ns. */
START_TEST(test_ncu_page_of_2025_3)
{
    char *csv = slurp("tests/fixtures/ncu-2025.3-mv_warp.csv");
    ck_assert_ptr_nonnull(csv);
    ncu_kernel k[4];
    ck_assert_int_eq(ncu_read(csv, k, 4), 1); /* one launch of the stage's kernel */
    ck_assert(strstr(k[0].name, "mv_warp_kernel") != NULL);
    ck_assert(fabs(k[0].value[0] - 530.592) < 1e-6);  /* 530592 ns */
    ck_assert(fabs(k[0].value[1] - 84.27) < 1e-6);    /* DRAM */
    ck_assert(fabs(k[0].value[3] - 12.57) < 1e-6);    /* compute, column 525 */
    ck_assert(fabs(k[0].value[4] - 91.05) < 1e-6);    /* achieved occupancy, column 529 */
    ck_assert(k[0].value[5] == 32 && k[0].value[6] == 0 && k[0].value[8] == 0);
    ck_assert_str_eq(ncu_stalls[k[0].stall[0]].reason, "long_scoreboard");
    ck_assert(fabs(k[0].stall_cycles[0] - 186.18) < 1e-6);
    ck_assert_str_eq(ncu_stalls[k[0].stall[1]].reason, "lg_throttle");
    for (int m = 0; m < NCU_SHOWN; m++) ck_assert_msg(!isnan(k[0].value[m]), "%s", ncu_shown[m].label);
    free(csv);
}
END_TEST

/* Int elements (lab 10): stored rounded, clamped, NaN as INT32_MAX, so the poison values are ints no
 * sum can be; a fill from a seed gives integers in [lo, hi] (quantum 1), the same each time. */
START_TEST(test_int_elements_round_clamp_and_fill)
{
    int32_t v[4096];
    elem_set(v, I32, 0, 2.6);
    elem_set(v, I32, 1, -7.0);
    elem_set(v, I32, 2, NAN);
    elem_set(v, I32, 3, -3.25e30);
    ck_assert_int_eq(v[0], 3);
    ck_assert_int_eq(v[1], -7);
    ck_assert_int_eq(v[2], INT32_MAX);
    ck_assert_int_eq(v[3], INT32_MIN);
    ck_assert(elem_get(v, I32, 1) == -7.0);
    ck_assert(elem_stored(I32, poison_value(0)) == INT32_MAX && elem_stored(I32, poison_value(1)) == INT32_MIN);
    ck_assert_uint_eq(elem_bytes(I32), 4);
    vary_fill(v, I32, 4096, 42, -6, 7, 1);
    double sum = 0;
    int lo = 0, hi = 0;
    for (int i = 0; i < 4096; i++) {
        lo = v[i] < lo ? v[i] : lo, hi = v[i] > hi ? v[i] : hi;
        sum += v[i];
    }
    ck_assert_int_eq(lo, -6);
    ck_assert_int_eq(hi, 7);
    ck_assert(sum == vary_sum(I32, 4096, 42, -6, 7, 1));
    ck_assert(fabs(sum / 4096 - 0.5) < 0.2); /* the mean lab 10's overflow argument rests on */
}
END_TEST

/* Time the host of a VM took (steal) excuses a shortfall only where the code, given that time back,
 * would have passed: serial code stays serial, slow code slow, and a little steal excuses nothing. */
START_TEST(test_steal_excuses_only_what_it_explains)
{
    double steal = machine_steal_seconds(), later;
    ck_assert_msg(steal >= 0, "no steal count in /proc/stat");
    usleep(20000);
    later = machine_steal_seconds();
    ck_assert(later >= steal);
    stage_result parallel = {.cpus = 1.5, .stolen = 0.2, .speedup = 0.7, .speedup_required = 0.75};
    ck_assert(passes_given_back(&parallel, "no-speedup", 2)); /* 0.7 x 1.7 / 1.5 = 0.79 */
    stage_result serial = {.cpus = 1.0, .stolen = 0.2, .speedup = 1.0, .speedup_required = 0.75};
    ck_assert(!passes_given_back(&serial, "no-speedup", 2)); /* 1.2 CPUs: still one thread's work */
    ck_assert(passes_given_back(&serial, "no-speedup", 1));  /* a one-core machine: no thread count to show */
    stage_result little = {.cpus = 1.5, .stolen = 0.05, .speedup = 0.74, .speedup_required = 0.75};
    ck_assert(!passes_given_back(&little, "no-speedup", 2));
    stage_result slow = {.cpus = 1.0, .stolen = 0.3, .fraction = 0.2, .required = 0.4};
    ck_assert(!passes_given_back(&slow, "too-slow", 1)); /* 0.2 x 1.3: still short */
    slow.fraction = 0.35;
    ck_assert(passes_given_back(&slow, "too-slow", 1));
    stage_result waited = {.cpus = 1.3, .stolen = 0, .waited = 0.7, .speedup = 0.6, .speedup_required = 0.65};
    ck_assert(passes_given_back(&waited, "no-speedup", 2)); /* a neighbour on a core: 2.0 CPUs, 0.92x */
    ck_assert(!passes_given_back(&slow, "wrong", 1));
}
END_TEST

/* A stage short of its fraction is timed again only where another timing could pass it: within
 * RETIME_WITHIN of its threshold, or on a machine that took CPU time from it (or can't say). */
START_TEST(test_retime_only_what_a_quieter_moment_could_pass)
{
    stage_result near = {.fraction = 0.06, .required = 0.08};   /* 75% of it: noise can be that much */
    ck_assert(worth_timing_again(&near));
    stage_result far = {.fraction = 0.046, .required = 0.08};   /* lab 02's i-k-j as blocked: 58% */
    ck_assert(!worth_timing_again(&far));
    far.waited = 0.3; /* a neighbour held its CPU: timed again */
    ck_assert(worth_timing_again(&far));
    far.waited = 0, far.stolen = 0.12; /* the host took time */
    ck_assert(worth_timing_again(&far));
    far.stolen = -1; /* no count of it */
    ck_assert(worth_timing_again(&far));
}
END_TEST

/* A compute-bound lab-03 stage judged over the one-thread baseline: serial code (the kernel's count:
 * one CPU's worth, waits included) is a failure before anything a busy machine excuses; a shortfall
 * is BUSY only where the time its threads lost, given back, would have made it pass, or (nothing
 * lost) where OpenBLAS itself can't gain from the cores now. Figures like those recorded in
 * docs/BENCHMARKS.md (lab 03, the one-thread baseline). */
START_TEST(test_speedup_verdict_condemns_serial_before_busy)
{
    /* twice_at_one, quiet: serial i-k-j, at the baseline's rate */
    stage_result twice = {.cpus = 0.97, .stolen = 0.05, .waited = 0, .speedup = 1.01, .speedup_required = 1.3};
    ck_assert_int_eq(speedup_verdict(&twice, 2, -1), SPEEDUP_SERIAL);
    ck_assert(!speedup_needs_library(&twice, 2));
    /* the same beside a busy neighbour: its one thread shares a core, losing a third of it */
    stage_result serial = {.cpus = 0.66, .stolen = 0, .waited = 0.34, .speedup = 0.6, .speedup_required = 1.3};
    ck_assert_int_eq(speedup_verdict(&serial, 2, 1.0), SPEEDUP_SERIAL);
    ck_assert(!passes_given_back(&serial, "no-speedup", 2));
    /* serial code whose technique beats the baseline still ran on one thread */
    stage_result fast = {.cpus = 1.0, .stolen = 0, .waited = 0.01, .speedup = 2.7, .speedup_required = 1.3};
    ck_assert_int_eq(speedup_verdict(&fast, 2, -1), SPEEDUP_SERIAL);
    /* honest code beside a busy neighbour: given back its lost CPU it passes */
    stage_result honest = {.cpus = 1.01, .stolen = 0, .waited = 0.92, .speedup = 0.95, .speedup_required = 1.3};
    ck_assert_int_eq(speedup_verdict(&honest, 2, -1), SPEEDUP_BUSY_LOST);
    ck_assert(fabs(given_back(&honest, "no-speedup") - 0.95 * 1.93 / 1.01) < 1e-9);
    /* one thread working beside one spinning, beside a neighbour: given back, still the baseline's rate */
    stage_result spins = {.cpus = 1.33, .stolen = 0, .waited = 0.67, .speedup = 0.67, .speedup_required = 1.3};
    ck_assert_int_eq(speedup_verdict(&spins, 2, 1.0), SPEEDUP_SHORT_LOST);
    /* ... and on a quiet machine, where the library gains */
    stage_result quiet = {.cpus = 1.95, .stolen = 0, .waited = 0.01, .speedup = 1.0, .speedup_required = 1.3};
    ck_assert(speedup_needs_library(&quiet, 2));
    ck_assert_int_eq(speedup_verdict(&quiet, 2, 1.9), SPEEDUP_SHORT);
    /* nothing lost, and OpenBLAS can't gain either (two vCPUs on one physical core) */
    ck_assert_int_eq(speedup_verdict(&quiet, 2, 1.1), SPEEDUP_BUSY_LIBRARY); /* 1.0 x 2 / 1.1 = 1.82 */
    /* lab 02's i-k-j as lab 03's blocked, its rows shared out: 2.6x of 4x, most of which is the
     * blocking's gain; OpenBLAS gains 1.98x of 2: no machine explains it (it was once BUSY) */
    stage_result skip = {.cpus = 1.9, .stolen = 0, .waited = 0.01, .speedup = 2.6, .speedup_required = 4.0};
    ck_assert_int_eq(speedup_verdict(&skip, 2, 1.98), SPEEDUP_SHORT);
    ck_assert_int_eq(speedup_verdict(&skip, 2, 1.2), SPEEDUP_BUSY_LIBRARY); /* 2.6 x 2 / 1.2 = 4.3 */
    /* passing: threads worked and the rate is over the requirement; an unknown CPU count condemns nothing */
    stage_result pass = {.cpus = 1.85, .stolen = 0, .waited = 0.05, .speedup = 2.1, .speedup_required = 1.3};
    ck_assert_int_eq(speedup_verdict(&pass, 2, -1), SPEEDUP_OK);
    pass.cpus = -1, pass.stolen = -1, pass.waited = -1;
    ck_assert_int_eq(speedup_verdict(&pass, 2, -1), SPEEDUP_OK);
}
END_TEST

/* A BUSY note states the figure the rule compared, given back, never the one measured as if it
 * passed (a note once said a 1.9% matmul "would have passed" against 2.5%: serial code, too slow). */
START_TEST(test_busy_note_figure_is_the_one_compared)
{
    stage_result slow = {.cpus = 1.3, .stolen = 0, .waited = 0.7, .fraction = 0.019, .required = 0.025,
                         .speedup_required = 1.3};
    double figure = given_back(&slow, "too-slow");
    ck_assert(fabs(figure - 0.019 * 2.0 / 1.3) < 1e-12);
    ck_assert_int_eq(passes_given_back(&slow, "too-slow", 2), figure >= slow.required);
    slow.cpus = 0.7, slow.waited = 0.3; /* the serial plant beside a neighbour: 1.0 CPU's worth */
    ck_assert(!passes_given_back(&slow, "too-slow", 2)); /* whatever it would reach */
    ck_assert(given_back(&slow, "too-slow") > slow.required); /* 0.019 x 1.43 = 2.7%: no excuse all the same */
    stage_result little = {.cpus = 1.8, .stolen = 0, .waited = 0.05, .fraction = 0.39, .required = 0.4};
    ck_assert(given_back(&little, "too-slow") == 0); /* under LOST_BUSY: nothing to give back */
}
END_TEST

/* The speed rules (verdict.c) on a real lab 01 grading's figures (this VM, 2026-11-27: `unrolled`,
 * four chains, one chain 1.327 GFLOP/s, the triad roof 2.446 GFLOP/s at its intensity): the
 * one-chain rule binds only where memory is far above one chain; credit runs from half the
 * requirement (nothing) to the requirement (all). */
START_TEST(test_speed_rules_on_recorded_figures)
{
    ck_assert(fabs(required_fraction(0.55, 1.1, 1.327, 2.446) - 0.55) < 1e-12); /* 1.1 x 1.327 = 60% of the roof */
    ck_assert(fabs(required_fraction(0.55, 1.1, 1.327, 4.0) - 0.364) < 1e-12);  /* 36.49%, to 0.1% down */
    ck_assert(fabs(required_fraction(0.55, 0, 1.327, 4.0) - 0.55) < 1e-12);     /* no <stage>_over_chain */
    ck_assert(fabs(required_fraction(0.55, 1.1, 0, 4.0) - 0.55) < 1e-12);       /* no chain measured */
    stage_result r = {.required = 0.55, .max_speed = 10, .fraction = 0.56};
    speed_points(&r, 0.5);
    ck_assert(r.fast_enough && r.points_speed == 10);
    r.fraction = 0.55; /* at the requirement: a pass */
    speed_points(&r, 0.5);
    ck_assert(r.fast_enough && r.points_speed == 10);
    r.fraction = 0.4125; /* halfway from 27.5% to 55% */
    speed_points(&r, 0.5);
    ck_assert(!r.fast_enough && fabs(r.points_speed - 5) < 1e-9);
    r.fraction = 0.2;
    speed_points(&r, 0.5);
    ck_assert(!r.fast_enough && r.points_speed == 0);
    r.fraction = 0.5; /* partial_from 1: all or nothing */
    speed_points(&r, 1.0);
    ck_assert(!r.fast_enough && r.points_speed == 0);
    /* the ceiling: lab 01's rows on the Xeon (roof 2.446 GFLOP/s, one chain of adds 1.327) */
    stage_result c = {0};
    speed_ceiling(&c, 2.446, 0, 1.327);
    ck_assert(c.ceiling_gflops == 1.327 && c.chain_bound && !c.fp32_bound);
    speed_ceiling(&c, 2.446, 0, 0); /* a stage of several chains: the roof */
    ck_assert(c.ceiling_gflops == 2.446 && !c.chain_bound && !c.fp32_bound);
    speed_ceiling(&c, 1.327, 0, 2.446); /* a chain faster than the roof caps nothing */
    ck_assert(c.ceiling_gflops == 1.327 && !c.chain_bound);
    /* lab 11 on an H100: the memory roof times K = 7's intensity above the FP32 peak measured */
    speed_ceiling(&c, 96000, 51000, 0);
    ck_assert(c.ceiling_gflops == 51000 && c.fp32_bound && !c.chain_bound);
    speed_ceiling(&c, 96000, 120000, 0);
    ck_assert(c.ceiling_gflops == 96000 && !c.fp32_bound);
    /* a pass against OpenBLAS within CONFIRM_WITHIN of lab 02's blocked (8%) is measured again */
    ck_assert(worth_measuring_library_again(0.09, 0.08, 0));
    ck_assert(!worth_measuring_library_again(0.11, 0.08, 0));
    ck_assert(!worth_measuring_library_again(0.07, 0.08, 0)); /* a failure: nothing to confirm */
    ck_assert(!worth_measuring_library_again(0.5, 0, 0));
    /* on a GPU every pass: lab 06's slowed copy at 0.9x passed every stage at 1.7x its threshold once
     * in twenty gradings, cuBLAS read at about half its rate */
    ck_assert(worth_measuring_library_again(0.5, 0.08, 1));
    ck_assert(!worth_measuring_library_again(0.07, 0.08, 1));
    ck_assert(impossible_above(1.5, 50) == 75);
}
END_TEST

/* Lab 05's matvec: a pipeline is a kernel running while a copy in is under way on another stream. */
/* The probe measured again after a pass: each part's faster time kept, so a copy read slow once
 * (lab 05's matvec on a host shared with three busy GPUs: the copy of A 1.64 times slow) no longer
 * makes a slowed copy pass; a part faster the first time stays. */
START_TEST(test_a_pipeline_probe_measured_twice_keeps_each_faster_part)
{
    pipeline_times t = {.h2d = 8.0e-3, .kernel = 7e-5, .d2h = 2e-5, .stream_create_us = 3, .kernel_best = 6e-5};
    pipeline_times u = {.h2d = 4.9e-3, .kernel = 8e-5, .d2h = 2e-5, .stream_create_us = 9, .kernel_best = 5e-5};
    pipeline_keep_faster(&t, &u);
    ck_assert_double_eq(t.h2d, 4.9e-3);
    ck_assert_double_eq(t.kernel, 7e-5);
    ck_assert_double_eq(t.d2h, 2e-5);
    ck_assert_double_eq(t.kernel_best, 5e-5);
    ck_assert_double_eq(pipeline_ideal(&t), 4.9e-3); /* the ideal follows the faster copy */
}
END_TEST

START_TEST(test_a_pipeline_is_kernels_under_copies)
{
    /* chunks over two streams: chunk 1's copy in (stream 2) under chunk 0's kernel (stream 1) */
    const trace_event piped[] = {{1, TRACE_H2D, 0, 1.0},     {1, TRACE_KERNEL, 1.0, 1.02}, {2, TRACE_H2D, 1.0, 2.0},
                                 {1, TRACE_D2H, 1.02, 1.03}, {2, TRACE_KERNEL, 2.0, 2.02}, {2, TRACE_D2H, 2.02, 2.03}};
    ck_assert_int_eq(kernels_under_copies(piped, 6), 1);
    /* all of A in, then one kernel, then y out, on one stream: nothing overlaps */
    const trace_event serial[] = {{1, TRACE_H2D, 0, 2.0}, {1, TRACE_KERNEL, 2.0, 2.04}, {1, TRACE_D2H, 2.04, 2.05}};
    ck_assert_int_eq(kernels_under_copies(serial, 3), 0);
    /* chunks on one stream, one after another: the copies and kernels take turns, still nothing */
    const trace_event turns[] = {{1, TRACE_H2D, 0, 1.0}, {1, TRACE_KERNEL, 1.0, 1.02}, {1, TRACE_H2D, 1.02, 2.02},
                                 {1, TRACE_KERNEL, 2.02, 2.04}};
    ck_assert_int_eq(kernels_under_copies(turns, 4), 0);
    /* a kernel beside a copy *out* on another stream is no pipeline of A */
    const trace_event out[] = {{1, TRACE_KERNEL, 0, 1.0}, {2, TRACE_D2H, 0.5, 1.5}};
    ck_assert_int_eq(kernels_under_copies(out, 2), 0);
    ck_assert_int_eq(kernels_under_copies(NULL, 0), 0); /* no timeline came back */
}
END_TEST

/* Row 38: a runner that claims any time at all (moved on its stack, in its heap, in mapped memory,
 * by a second thread: its figure is the one number it sends) gains at most the empty call's round
 * trip and the slack below the scorer's own time, and never counts more than the scorer saw. */
START_TEST(test_runner_clock_gains_at_most_the_slack)
{
    const double outside = 2e-3, empty = 40e-6, slack = 100e-6;
    const double claims[] = {-1.0, 0.0, 1e-9, 0.5e-3, 1.85e-3, 1.9e-3, 2e-3, 3e-3, 1e9, NAN};
    for (size_t i = 0; i < sizeof claims / sizeof claims[0]; i++) {
        double t = judged_time(outside, claims[i], empty, slack);
        ck_assert_msg(t >= outside - empty - slack - 1e-15 && t <= outside, "claimed %g: judged %g", claims[i], t);
    }
    ck_assert(judged_time(outside, 1.95e-3, empty, slack) == 1.95e-3); /* finer than the scorer's: believed */
    ck_assert(judged_time(outside, 0, empty, slack) == outside - empty - slack);
}
END_TEST

/* common/'s folders are the trust boundary (README.md, "How the grader is built"): what links with
 * student code (runner/) and what both processes compile (both/) include nothing of the scorer's
 * side, and no two files include each other, however far round (no circle of files). */
START_TEST(test_common_folders_keep_the_runner_apart_and_have_no_circles)
{
    glob_t g;
    ck_assert_int_eq(glob("common/*/*.[ch]", 0, NULL, &g), 0);
    glob("common/*/*.cu", GLOB_APPEND, NULL, &g);
    int n = (int)g.gl_pathc;
    char (*names)[64] = calloc((size_t)n, sizeof *names);
    unsigned char *edge = calloc((size_t)n * (size_t)n, 1);
    for (int i = 0; i < n; i++) snprintf(names[i], sizeof names[i], "%s", strrchr(g.gl_pathv[i], '/') + 1);
    for (int i = 0; i < n; i++) {
        char *text = slurp(g.gl_pathv[i]);
        ck_assert_ptr_nonnull(text);
        int runner_side = !strncmp(g.gl_pathv[i], "common/runner/", 14) || !strncmp(g.gl_pathv[i], "common/both/", 12);
        for (char *p = text; (p = strstr(p, "#include \"")); p++) {
            char inc[64];
            if (sscanf(p, "#include \"%63[^\"]\"", inc) != 1) continue;
            for (int j = 0; j < n; j++) {
                if (strcmp(names[j], inc)) continue;
                edge[i * n + j] = 1;
                if (runner_side)
                    ck_assert_msg(!strncmp(g.gl_pathv[j], "common/runner/", 14) || !strncmp(g.gl_pathv[j], "common/both/", 12),
                                  "%s (linked with student code) includes %s", g.gl_pathv[i], g.gl_pathv[j]);
            }
        }
        free(text);
    }
    /* A file's header and its source count as one (x.c includes x.h): the circle is between files. */
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            size_t a = strcspn(names[i], "."), b = strcspn(names[j], ".");
            if (a == b && !strncmp(names[i], names[j], a)) edge[i * n + j] = 0;
        }
    for (int k = 0; k < n; k++) /* reachability (Warshall) */
        for (int i = 0; i < n; i++)
            if (edge[i * n + k])
                for (int j = 0; j < n; j++) edge[i * n + j] |= edge[k * n + j];
    for (int i = 0; i < n; i++) ck_assert_msg(!edge[i * n + i], "%s is in a circle of includes", g.gl_pathv[i]);
    free(names);
    free(edge);
    globfree(&g);
}
END_TEST

/* The scorer's kept big blocks (util.c big_take): one given back is handed out again for a size up to
 * an eighth smaller (a stage's fresh shape), never for a larger one nor one far smaller; small sizes
 * are plain malloc; and a block handed out is not handed out twice. */
START_TEST(test_big_blocks_come_back_for_a_like_size)
{
    size_t big = (size_t)80 << 20;
    unsigned char *a = big_take(big);
    ck_assert_ptr_nonnull(a);
    a[0] = 1, a[big - 1] = 2;
    unsigned char *b = big_take(big); /* a is still out: another block */
    ck_assert_ptr_ne(a, b);
    big_give(b);
    big_give(a);
    unsigned char *c = big_take(big - (big >> 4)); /* a sixteenth smaller: a kept block fits */
    ck_assert(c == a || c == b);
    unsigned char *d = big_take(big + (big >> 3)); /* larger than any kept one (they have a sixteenth to spare) */
    ck_assert(d != a && d != b);
    unsigned char *e = big_take(big / 2 + ((size_t)8 << 20)); /* half the size: a fresh block, not the kept one */
    ck_assert(e != a && e != b);
    big_give(c), big_give(d), big_give(e);
    char *small = big_take(100);
    ck_assert_ptr_nonnull(small);
    big_give(small); /* plain free */
}
END_TEST

/* A lab built for one architecture (lab 12's gpu_arch = 90a) runs on a GPU of that compute
 * capability alone, and elsewhere is skipped with a reason that names both. */
START_TEST(test_gpu_arch_runs_on_its_own_capability_alone)
{
    char why[512] = "";
    ck_assert_int_eq(gpu_arch_refused("90a", "90", "NVIDIA H100 80GB HBM3", why, sizeof why), 0);
    ck_assert_int_eq(gpu_arch_refused(NULL, "80", "NVIDIA A100", why, sizeof why), 0); /* no gpu_arch: every GPU */
    ck_assert_int_eq(gpu_arch_refused("", "80", "NVIDIA A100", why, sizeof why), 0);
    ck_assert_int_eq(gpu_arch_refused("90a", "80", "NVIDIA A100-SXM4-40GB", why, sizeof why), 1);
    ck_assert_msg(strstr(why, "compute capability 9.0") && strstr(why, "NVIDIA A100-SXM4-40GB, is 8.0") && strstr(why, "sm_90a") &&
                      strstr(why, "Hopper"),
                  "%s", why);
    ck_assert_int_eq(gpu_arch_refused("90a", "100", "NVIDIA B200", why, sizeof why), 1);
    ck_assert_msg(strstr(why, "B200, is 10.0"), "%s", why);
    ck_assert_int_eq(gpu_arch_refused("100a", "100", "NVIDIA B200", why, sizeof why), 0);
    ck_assert_int_eq(gpu_arch_refused("100a", "10", "odd", why, sizeof why), 1); /* "10" is not "100" */
}
END_TEST

Suite *units_suite(void)
{
    Suite *s = suite_create("units");
    TCase *t = tcase_create("harness");
    tcase_add_test(t, test_median_odd_even_and_empty);
    tcase_add_test(t, test_big_blocks_come_back_for_a_like_size);
    tcase_add_test(t, test_a_pipeline_is_kernels_under_copies);
    tcase_add_test(t, test_a_pipeline_probe_measured_twice_keeps_each_faster_part);
    tcase_add_test(t, test_runner_clock_gains_at_most_the_slack);
    tcase_add_test(t, test_percent_decimals_show_requirements_as_set);
    tcase_add_test(t, test_median_ignores_one_outlier);
    tcase_add_test(t, test_count_bad_nan_and_inf_fail);
    tcase_add_test(t, test_count_bad_respects_the_bound_exactly);
    tcase_add_test(t, test_matvec_bound_accepts_double_rejects_float);
    tcase_add_test(t, test_diagnose_untouched_output);
    tcase_add_test(t, test_diagnose_nan_zero_factor_precision);
    tcase_add_test(t, test_diagnose_last_columns_and_rows);
    tcase_add_test(t, test_diagnose_sizes_remainder_and_ones);
    tcase_add_test(t, test_config_parses_values_and_comments);
    tcase_add_test(t, test_config_rejects_a_line_without_equals);
    tcase_add_test(t, test_lab_thresholds_are_fractions);
    tcase_add_test(t, test_ptx_technique_reads_kernels_and_their_calls);
    tcase_add_test(t, test_ptx_divergence_counts_split_warps);
    tcase_add_test(t, test_ptx_passes_cut_at_synchronisations);
    tcase_add_test(t, test_x86_chains_counts_accumulators_in_loops);
    tcase_add_test(t, test_ptx_conflicts_follow_a_warps_addresses);
    tcase_add_test(t, test_ptx_fma_chains_and_outer_products);
    tcase_add_test(t, test_json_escapes_and_nonfinite);
    tcase_add_test(t, test_rng_replays_from_seed);
    tcase_add_test(t, test_machine_key_is_stable_and_llc_read);
    tcase_add_test(t, test_calibration_is_cached_per_machine);
    tcase_add_test(t, test_usable_llc_is_measured_once_and_never_above_the_reported);
    tcase_add_test(t, test_gpu_arch_runs_on_its_own_capability_alone);
    tcase_add_test(t, test_vary_sum_is_the_sum_of_the_fill);
    tcase_add_test(t, test_timeline_copy_time_is_the_union_of_copies);
    tcase_add_test(t, test_deps_sees_cblas_header_without_openblas);
    tcase_add_test(t, test_deps_does_not_retry_a_failed_optional_install);
    tcase_add_test(t, test_runner_cpu_seconds_counts_every_thread);
    tcase_add_test(t, test_runner_gpu_is_one_named_device_or_zero);
    tcase_add_test(t, test_cuda_sanitizer_report_names_the_students_line);
    tcase_add_test(t, test_ncu_page_read_and_recorded_profile);
    tcase_add_test(t, test_ncu_page_of_2025_3);
    tcase_add_test(t, test_steal_excuses_only_what_it_explains);
    tcase_add_test(t, test_retime_only_what_a_quieter_moment_could_pass);
    tcase_add_test(t, test_speedup_verdict_condemns_serial_before_busy);
    tcase_add_test(t, test_speed_rules_on_recorded_figures);
    tcase_add_test(t, test_busy_note_figure_is_the_one_compared);
    tcase_add_test(t, test_int_elements_round_clamp_and_fill);
    tcase_add_test(t, test_common_folders_keep_the_runner_apart_and_have_no_circles);
    tcase_set_timeout(t, 60);
    suite_add_tcase(s, t);
    return s;
}
