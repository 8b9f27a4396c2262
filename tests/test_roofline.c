/* test_roofline.c - the roofline charts `make grade` and `make roofline` draw: from fixed results
 * files (tests/fixtures/, so nothing is graded), a chart that is well-formed XML with a labelled
 * point for each timed stage, both roofs and the reference's points; lab 05's bars against the
 * ideal; and without gnuplot, a message naming the Debian package instead of a failure. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"

#define MAKE "env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory"
#define DIR "build/tmp/roofline" /* a build folder of its own: the chart tool and the fixtures' results */

static void fixtures(void)
{
    ck_assert_int_eq(sh("rm -rf " DIR " && mkdir -p " DIR "/results/solutions && "
                        "cp tests/fixtures/results-01-cpu-matvec.json " DIR "/results/01-cpu-matvec.json && "
                        "cp tests/fixtures/reference-01-cpu-matvec.json " DIR
                        "/results/solutions/01-cpu-matvec.json && "
                        "cp tests/fixtures/results-05-streams.json " DIR "/results/05-streams.json"),
                     0);
}

/* The chart parsed as XML (a malformed file fails here): a line "TEXT <text>" for every text
 * element and "PATH <stroke colour>" for every path, in a string the caller frees. */
static char *chart(const char *svg)
{
    int rc = sh("python3 -c 'import sys, xml.etree.ElementTree as E; n = \"{http://www.w3.org/2000/svg}\"; "
                "r = E.parse(sys.argv[1]).getroot(); "
                "[print(\"TEXT\", \"\".join(t.itertext()).strip()) for t in r.iter(n + \"text\")]; "
                "[print(\"PATH\", (p.get(\"stroke\") or \"\").replace(\" \", \"\")) for p in r.iter(n + \"path\")]' "
                "%s > " DIR "/chart.txt",
                svg);
    ck_assert_msg(rc == 0, "%s is not well-formed XML", svg);
    return slurp(DIR "/chart.txt");
}

static int count(const char *text, const char *what)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, what)); p += strlen(what)) n++;
    return n;
}

static int no_gnuplot(void)
{
    if (sh("command -v gnuplot > /dev/null") == 0) return 0;
    printf("roofline charts: skipped: gnuplot is not installed (Debian package gnuplot-nox)\n");
    return 1;
}

START_TEST(test_roofline_chart_has_a_point_per_stage_and_both_roofs)
{
    if (no_gnuplot()) return;
    fixtures();
    ck_assert_int_eq(sh(MAKE " roofline LAB=01 BUILD=" DIR " > " DIR "/make.log 2>&1"), 0);
    char *log = slurp(DIR "/make.log");
    ck_assert_ptr_nonnull(strstr(log, "roofline: " DIR "/results/01-cpu-matvec.svg\n"));
    char *c = chart(DIR "/results/01-cpu-matvec.svg");
    /* the timed stages, each labelled with its % of its ceiling; the untimed one said why */
    ck_assert_ptr_nonnull(strstr(c, "TEXT contiguous 45%\n"));
    ck_assert_ptr_nonnull(strstr(c, "TEXT unrolled 48%\n"));
    ck_assert_ptr_nonnull(strstr(c, "TEXT no point (not timed): rows (wrong)\n"));
    /* the roofs measured in that run: in the key, and drawn (the key's sample is one more line) */
    ck_assert_ptr_nonnull(strstr(c, "TEXT memory roof: triad 11.6 GB/s x intensity\n"));
    ck_assert_ptr_nonnull(strstr(c, "TEXT compute roof: 27.5 GFLOP/s\n"));
    ck_assert_int_ge(count(c, "PATH rgb(214,39,40)\n"), 2);
    ck_assert_int_ge(count(c, "PATH rgb(44,160,44)\n"), 2);
    ck_assert_ptr_nonnull(strstr(c, "TEXT ridge 2.37 FLOP/byte\n"));
    ck_assert_ptr_nonnull(
        strstr(c, "TEXT compute roof: OpenBLAS dgemm 1024x1024x1024, 1 thread, measured while grading"));
    /* the reference's points (build/results/solutions/, from make grade WORK=solutions), grey */
    ck_assert_ptr_nonnull(strstr(c, "TEXT solutions/ (reference)\n"));
    ck_assert_ptr_nonnull(strstr(c, "TEXT grey: solutions/, seed 0x4d0f97a282a703b6, timed in its own run"));
    free(c);
    free(log);
}
END_TEST

START_TEST(test_roofline_lab05_gets_bars_against_the_ideal)
{
    if (no_gnuplot()) return;
    fixtures();
    ck_assert_int_eq(sh(MAKE " roofline LAB=05 BUILD=" DIR " > " DIR "/make.log 2>&1"), 0);
    char *c = chart(DIR "/results/05-streams.svg");
    static const char *const want[] = {
        "pageable", "pinned", "pipelined",          "graph",  "23%",
        "45%",      "89%",    "ideal (overlapped)", "serial", "no bar (not timed): graph (wrong)"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        char line[96];
        snprintf(line, sizeof line, "TEXT %s\n", want[i]);
        ck_assert_msg(strstr(c, line) != NULL, "the lab 05 chart lacks the text '%s'", want[i]);
    }
    ck_assert_ptr_nonnull(
        strstr(c, "TEXT 05-streams time per call against the ideal overlap: NVIDIA H100 80GB HBM3\n"));
    free(c);
}
END_TEST

/* Everything on the PATH but gnuplot: make roofline (and so make grade, which runs the same
 * script and ignores its status) says which package draws charts, draws none and succeeds. */
START_TEST(test_roofline_without_gnuplot_names_the_package)
{
    fixtures();
    ck_assert_int_eq(sh("mkdir -p " DIR "/bin && for f in /usr/local/bin/* /usr/bin/* /bin/*; do n=${f##*/}; "
                        "case $n in gnuplot*) ;; *) [ -e " DIR "/bin/$n ] || ln -s \"$f\" " DIR
                        "/bin/$n ;; esac; done"),
                     0);
    ck_assert_int_eq(sh("PATH=$PWD/" DIR "/bin " MAKE " roofline LAB=01 BUILD=" DIR " > " DIR "/make.log 2>&1"), 0);
    char *log = slurp(DIR "/make.log");
    ck_assert_ptr_nonnull(strstr(log, "roofline: no chart drawn: gnuplot is not installed (Debian package gnuplot-nox: "
                                      "apt-get install -y gnuplot-nox)"));
    ck_assert_int_eq(sh("test ! -e " DIR "/results/01-cpu-matvec.svg"), 0);
    free(log);
}
END_TEST

START_TEST(test_roofline_without_results_says_grade_first)
{
    if (no_gnuplot()) return;
    fixtures();
    ck_assert_int_ne(sh(MAKE " roofline LAB=02 BUILD=" DIR " > " DIR "/make.log 2>&1"), 0);
    char *log = slurp(DIR "/make.log");
    ck_assert_ptr_nonnull(strstr(log, "roofline: no results for 02-loop-order in " DIR "/results/: grade it first"));
    free(log);
}
END_TEST

Suite *roofline_suite(void)
{
    Suite *s = suite_create("roofline");
    TCase *t = tcase_create("charts");
    tcase_add_test(t, test_roofline_chart_has_a_point_per_stage_and_both_roofs);
    tcase_add_test(t, test_roofline_lab05_gets_bars_against_the_ideal);
    tcase_add_test(t, test_roofline_without_gnuplot_names_the_package);
    tcase_add_test(t, test_roofline_without_results_says_grade_first);
    tcase_set_timeout(t, 120);
    suite_add_tcase(s, t);
    return s;
}
