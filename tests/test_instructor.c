/* test_instructor.c - what an instructor relies on: the handin tarball, the student kit (with no
 * reference code in it), batch grading into a gradebook (broken submissions get a row, a second
 * run resumes), Autolab's scores line and the Gradescope bundle. */
#define _GNU_SOURCE
#include <ctype.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"

#define MAKE "env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory"

START_TEST(test_handin_holds_exactly_the_files_students_edit)
{
    ck_assert_int_eq(sh(MAKE " handin HANDIN_USER='a b' > build/tmp/handin.log 2>&1"), 0);
    ck_assert_int_eq(sh("tar -tzf build/handin-a_b.tar.gz > build/tmp/handin.txt"), 0);
    char *list = slurp("build/tmp/handin.txt");
    ck_assert_ptr_nonnull(list);
    int n = 0;
    for (char *line = strtok(list, "\n"); line; line = strtok(NULL, "\n"), n++) {
        char lab[128], file[128];
        ck_assert_msg(sscanf(line, "labs/%127[^/]/%127s", lab, file) == 2, "unexpected entry %s", line);
        ck_assert_msg(isdigit((unsigned char)lab[0]) && strchr(file, '/') == NULL, "unexpected entry %s", line);
    }
    glob_t g;
    glob("grading/[0-9][0-9]-*/lab.c", 0, NULL, &g);
    ck_assert_int_eq(n, (int)g.gl_pathc); /* one file a lab, nothing else */
    globfree(&g);
    free(list);
}
END_TEST

/* Whitespace removed, so reformatting doesn't hide a copy. */
static char *squeeze(const char *s)
{
    char *out = malloc(strlen(s) + 1), *o = out;
    for (; *s; s++)
        if (!isspace((unsigned char)*s)) *o++ = *s;
    *o = '\0';
    return out;
}

/* Every function body of a reference (or an honest variant) of 60 characters or more (squeezed) must appear in no file
 * of the kit: a body is the text between a ')' and its matching '{' ... '}' at the top level. */
START_TEST(test_dist_kit_has_no_reference_code)
{
    ck_assert_int_eq(sh(MAKE " dist > build/tmp/dist.log 2>&1"), 0);
    ck_assert_int_eq(sh("rm -rf build/tmp/kit && mkdir -p build/tmp/kit && tar -xzf build/workbook-kit.tar.gz "
                        "-C build/tmp/kit && test ! -e build/tmp/kit/workbook/solutions"), 0);
    ck_assert_int_eq(sh("find build/tmp/kit -type f -exec cat {} + > build/tmp/kit-all.txt"), 0);
    char *all = slurp("build/tmp/kit-all.txt");
    ck_assert_ptr_nonnull(all);
    char *kit = squeeze(all);
    /* Code the starters give the student (lab 05's kernel) is in the kit on purpose. */
    ck_assert_int_eq(sh("cat labs/*/* > build/tmp/starters-all.txt"), 0);
    char *starters_text = slurp("build/tmp/starters-all.txt"), *starters = squeeze(starters_text);
    glob_t g;
    glob("solutions/*/*.c", 0, NULL, &g);
    glob("solutions/*/*.cu", GLOB_APPEND, NULL, &g);
    glob("grading/*/honest/*.c*", GLOB_APPEND, NULL, &g); /* other correct versions: not for students either */
    glob("grading/*/textbook/*.c*", GLOB_APPEND, NULL, &g); /* a stage as the public sources write it: nor these */
    glob("scripts/studies/*.cu", GLOB_APPEND, NULL, &g); /* the kernel studies behind the references */
    ck_assert_int_gt((int)g.gl_pathc, 0);
    int bodies = 0;
    for (size_t f = 0; f < g.gl_pathc; f++) {
        char *text = slurp(g.gl_pathv[f]), *s = squeeze(text);
        for (char *p = s; (p = strstr(p, "){"));) {
            char *start = p + 1, *q = start;
            int depth = 0;
            do depth += *q == '{' ? 1 : *q == '}' ? -1 : 0;
            while (*++q && depth > 0);
            size_t len = (size_t)(q - start);
            if (len >= 60) {
                char *body = strndup(start, len);
                bodies++;
                ck_assert_msg(strstr(kit, body) == NULL || strstr(starters, body), "%s: a function body appears in the kit: %.80s...",
                              g.gl_pathv[f], body);
                free(body);
            }
            p = q;
        }
        free(text);
        free(s);
    }
    ck_assert_int_gt(bodies, 10);
    globfree(&g);
    free(kit);
    free(all);
    free(starters);
    free(starters_text);
}
END_TEST

/* Five students: a good tarball, a starter folder, a file that is no tarball (with a hostile
 * name), a tarball holding a symbolic link, and an empty folder. */
START_TEST(test_grade_all_writes_a_row_per_student_and_resumes)
{
    ck_assert_int_eq(sh("rm -rf build/tmp/subs build/tmp/mk build/tmp/mk2 build/grade-all && mkdir -p "
                        "build/tmp/subs/bob/01-cpu-matvec build/tmp/subs/erin build/tmp/mk/labs/01-cpu-matvec "
                        "build/tmp/mk2/labs/01-cpu-matvec && cp solutions/01-cpu-matvec/matvec.c "
                        "build/tmp/mk/labs/01-cpu-matvec/ && tar -C build/tmp/mk -czf build/tmp/subs/handin-ann.tar.gz "
                        "labs && cp labs/01-cpu-matvec/matvec.c build/tmp/subs/bob/01-cpu-matvec/ && echo x > "
                        "'build/tmp/subs/carl \"$(rm -rf x)\".tar.gz' && ln -s /etc/passwd "
                        "build/tmp/mk2/labs/01-cpu-matvec/matvec.c && tar -C build/tmp/mk2 -czf "
                        "build/tmp/subs/dave.tar.gz labs"), 0);
    ck_assert_int_eq(sh(MAKE " grade-all SUBMISSIONS=build/tmp/subs LAB=01 > build/tmp/grade-all.log 2>&1"), 0);
    char *csv = slurp("build/gradebook.csv");
    ck_assert_ptr_nonnull(csv);
    ck_assert_ptr_nonnull(strstr(csv, "student,status,\"01-cpu-matvec total\",\"01-cpu-matvec/rows\""));
    char *ann = strstr(csv, "\n\"ann\",\"graded\","), *bob = strstr(csv, "\n\"bob\",\"graded\",");
    ck_assert_ptr_nonnull(ann);
    ck_assert_ptr_nonnull(bob);
    ck_assert_msg(atof(ann + strlen("\n\"ann\",\"graded\",")) >= 15, "the reference lost correctness points");
    ck_assert_msg(atof(bob + strlen("\n\"bob\",\"graded\",")) == 0, "the starter scored");
    ck_assert_ptr_nonnull(strstr(csv, "\"rejected: not a readable tarball"));
    ck_assert_ptr_nonnull(strstr(csv, "\"rejected: the tarball holds something that is not a plain file"));
    ck_assert_ptr_nonnull(strstr(csv, "\n\"erin\",\"rejected: no lab files found"));
    int rows = 0;
    for (char *p = csv; (p = strchr(p, '\n')); p++) rows++;
    ck_assert_int_eq(rows, 6); /* the header and five students */
    free(csv);
    ck_assert_int_eq(sh(MAKE " grade-all SUBMISSIONS=build/tmp/subs LAB=01 > build/tmp/grade-all2.log 2>&1"), 0);
    char *log = slurp("build/tmp/grade-all2.log");
    ck_assert_ptr_nonnull(strstr(log, "graded 0 of 5 submissions now"));
    free(log);
    ck_assert_int_eq(sh("test ! -e x"), 0); /* the hostile name ran nothing */
}
END_TEST

/* The same grading as a SLURM job array on a real single-node cluster started here (skipped, with
 * the reason, only where SLURM can't be installed or started), of one stage (STAGE=, passed on to
 * every task): an assignment that covers one stage. */
START_TEST(test_grade_all_on_slurm)
{
    int up = sh("sh tests/slurm-up.sh build/tmp/slurm > build/tmp/slurm-up.log 2>&1");
    if (up == 77) {
        char *why = slurp("build/tmp/slurm-up.log");
        printf("grade-all on SLURM: skipped: %s", why ? why : "SLURM unavailable\n");
        free(why);
        return;
    }
    ck_assert_msg(up == 0, "slurm-up.sh failed (see build/tmp/slurm-up.log)");
    int rc = sh("rm -rf build/tmp/ssubs build/tmp/smk build/grade-all && mkdir -p build/tmp/ssubs/erin "
                "build/tmp/smk/labs/01-cpu-matvec && cp solutions/01-cpu-matvec/matvec.c build/tmp/smk/labs/01-cpu-matvec/ "
                "&& tar -C build/tmp/smk -czf build/tmp/ssubs/ann.tar.gz labs && SLURM_CONF=$PWD/build/tmp/slurm/slurm.conf "
                MAKE " grade-all SUBMISSIONS=build/tmp/ssubs LAB=01 STAGE=contiguous SLURM=1 > build/tmp/grade-slurm.log 2>&1");
    sh("sh tests/slurm-down.sh build/tmp/slurm");
    ck_assert_msg(rc == 0, "make grade-all SLURM=1 exited %d (see build/tmp/grade-slurm.log)", rc);
    char *csv = slurp("build/gradebook.csv"), *log = slurp("build/tmp/grade-slurm.log");
    ck_assert_ptr_nonnull(csv);
    ck_assert_ptr_nonnull(strstr(log, "submitting 2 grading tasks to SLURM"));
    char *ann = strstr(csv, "\n\"ann\",\"graded\",");
    ck_assert_ptr_nonnull(ann);
    ck_assert_msg(atof(ann + strlen("\n\"ann\",\"graded\",")) >= 5, "the reference lost correctness points");
    char *graded = slurp("build/grade-all/students/ann/01-cpu-matvec.log");
    ck_assert_msg(graded && strstr(graded, "1 of 3 stages graded"), "STAGE=contiguous: %s", graded ? graded : "(no log)");
    free(graded);
    ck_assert_ptr_nonnull(strstr(csv, "\n\"erin\",\"rejected: no lab files found"));
    free(csv);
    free(log);
}
END_TEST

START_TEST(test_autolab_prints_its_scores_last)
{
    ck_assert_int_eq(sh(MAKE " autolab LAB=01 WORK=labs > build/tmp/autolab.out 2> build/tmp/autolab.err"), 0);
    char *out = slurp("build/tmp/autolab.out");
    ck_assert_ptr_nonnull(out);
    char *last = out + strlen(out);
    while (last > out && last[-1] == '\n') *--last = '\0';
    while (last > out && last[-1] != '\n') last--;
    ck_assert_str_eq(last, "{\"scores\": {\"rows\": 0, \"contiguous\": 0, \"unrolled\": 0}}");
    free(out);
}
END_TEST

/* The bundle, then its run_autograder as Gradescope would run it, in a stand-in /autograder tree
 * (source/ unzipped, submission/ with a student's lab 01), on an image without CUDA as Gradescope's
 * are: results/results.json comes out. */
START_TEST(test_gradescope_bundle_grades_a_submission)
{
    /* one assignment a stage: the lab and stage baked into run_autograder */
    ck_assert_int_eq(sh(MAKE " gradescope LAB=01 STAGE=nope > build/tmp/gradescope.log 2>&1"), 2);
    ck_assert_int_eq(sh(MAKE " gradescope LAB=01 STAGE=contiguous > build/tmp/gradescope.log 2>&1"), 0);
    ck_assert_int_eq(sh("python3 -c 'import sys, zipfile; n = zipfile.ZipFile(\"build/gradescope-autograder.zip\")"
                        ".namelist(); sys.exit(not (\"setup.sh\" in n and \"run_autograder\" in n and "
                        "\"workbook/Makefile\" in n and not any(\"solutions/\" in x for x in n)))'"),
                     0);
    ck_assert_int_eq(sh("rm -rf build/tmp/ag && mkdir -p build/tmp/ag/source build/tmp/ag/submission/labs/01-cpu-matvec && "
                        "python3 -c 'import os, zipfile; z = zipfile.ZipFile(\"build/gradescope-autograder.zip\"); "
                        "[os.chmod(z.extract(i, \"build/tmp/ag/source\"), i.external_attr >> 16 or 0o644) "
                        "for i in z.infolist()]' && cp solutions/01-cpu-matvec/matvec.c "
                        "build/tmp/ag/submission/labs/01-cpu-matvec/ && NVCC=no-nvcc AUTOGRADER_ROOT=$PWD/build/tmp/ag sh "
                        "build/tmp/ag/source/run_autograder > build/tmp/ag.log 2>&1"),
                     0);
    char *doc = slurp("build/tmp/ag/results/results.json");
    ck_assert_ptr_nonnull(doc);
    ck_assert_ptr_nonnull(strstr(doc, "{\"name\": \"01-cpu-matvec contiguous: correctness\",\"score\": 5,"));
    ck_assert_ptr_nonnull(strstr(doc, "{\"name\": \"01-cpu-matvec rows: speed\",\"score\": 0,\"max_score\": 0,"));
    ck_assert_ptr_nonnull(strstr(doc, "\"score\": "));
    free(doc);
}
END_TEST

/* In the student kit, `make check` is the student's own check: their labs graded into build/check/
 * (never build/results/), the starter not yet passing, a finished lab passing, nothing installed
 * beyond grading's needs and no daemon started (the kit's check runs deps.sh grade, not check). */
START_TEST(test_kit_make_check_is_the_students_own_check)
{
    ck_assert_int_eq(sh(MAKE " dist > build/tmp/kitcheck-dist.log 2>&1"), 0);
    ck_assert_int_eq(sh("rm -rf build/tmp/kitcheck && mkdir -p build/tmp/kitcheck && "
                        "tar -xzf build/workbook-kit.tar.gz -C build/tmp/kitcheck"), 0);
    /* the untouched starter: not yet (exit 1), and said so on the last line */
    int rc = sh("cd build/tmp/kitcheck/workbook && NVCC=no-nvcc " MAKE " check LAB=01 > ../starter.log 2>&1");
    char *log = slurp("build/tmp/kitcheck/starter.log");
    ck_assert_msg(rc != 0 && log && strstr(log, "check: not yet") && !strstr(log, "Checks:") &&
                  !strstr(log, "installing"), "exit %d:\n%s", rc, log ? log : "(no log)");
    free(log);
    /* lab 01 finished (the reference put in its place): every stage passes, exit 0 */
    hold_background(1); /* timed: a pass must not hang on the GPU labs' compiles beside it */
    rc = sh("cp solutions/01-cpu-matvec/matvec.c build/tmp/kitcheck/workbook/labs/01-cpu-matvec/ && "
            "cd build/tmp/kitcheck/workbook && NVCC=no-nvcc " MAKE " check LAB=01 STAGE=contiguous > ../finished.log 2>&1");
    hold_background(0);
    log = slurp("build/tmp/kitcheck/finished.log");
    ck_assert_msg(rc == 0 && log && strstr(log, "check: every graded stage of lab 01 passes") &&
                  strstr(log, "1 of 3 stages graded, 1 pass"), "exit %d:\n%s", rc, log ? log : "(no log)");
    free(log);
    ck_assert_int_eq(sh("test -f build/tmp/kitcheck/workbook/build/check/01-cpu-matvec.json && "
                        "test ! -e build/tmp/kitcheck/workbook/build/results"), 0);
}
END_TEST

Suite *instructor_suite(void)
{
    Suite *s = suite_create("instructor");
    TCase *t = tcase_create("kits-and-gradebook");
    tcase_add_test(t, test_handin_holds_exactly_the_files_students_edit);
    tcase_add_test(t, test_dist_kit_has_no_reference_code);
    tcase_add_test(t, test_grade_all_writes_a_row_per_student_and_resumes);
    tcase_add_test(t, test_grade_all_on_slurm);
    tcase_add_test(t, test_autolab_prints_its_scores_last);
    tcase_add_test(t, test_gradescope_bundle_grades_a_submission);
    tcase_add_test(t, test_kit_make_check_is_the_students_own_check);
    tcase_set_timeout(t, 600);
    suite_add_tcase(s, t);
    return s;
}
