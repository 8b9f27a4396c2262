/* test_handouts.c - the handouts: every one follows the template (and the checker catches one
 * that does not), names only files the student kit holds (and the path checker catches one that
 * names a solution or a planted submission), and `make handouts` renders one sound,
 * self-contained HTML page a lab, with its math as MathML, its images embedded and its code quoted
 * from the real files. Rendering needs pandoc: without it those tests say they are skipped, and
 * why. */
#define _GNU_SOURCE
#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"

#define MAKE "env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory"
#define TMP "build/tmp/handouts"

static glob_t lab_files; /* grading/NN-name/lab.c, one a lab */

/* The lab's name (NN-name) from its grading/NN-name/lab.c. */
static const char *lab_name(int i)
{
    static char name[256];
    snprintf(name, sizeof name, "%.*s", (int)(strlen(lab_files.gl_pathv[i]) - strlen("grading/") - strlen("/lab.c")),
             lab_files.gl_pathv[i] + strlen("grading/"));
    return name;
}

/* Rendering needs pandoc; without it, say so (the reason make gives) and skip. */
static int pandoc_missing(const char *test)
{
    if (sh("command -v pandoc > /dev/null 2>&1") == 0) return 0;
    sh(MAKE " handouts 2>&1 | head -n 1 > " TMP "/no-pandoc.log"); /* make's reason, without its "Error 2" */
    char *why = slurp(TMP "/no-pandoc.log");
    printf("%s: skipped: %s", test, why && *why ? why : "pandoc is not installed (Debian package: pandoc)\n");
    free(why);
    return 1;
}

/* A copy of handout 01 changed by a sed script, as TMP/planted/NAME.md; the verdict of CHECKER (a
 * script of common/) on it, its output in TMP/planted/NAME.log. */
static int plant_and_check(const char *checker, const char *name, const char *sed_script)
{
    return sh("mkdir -p " TMP "/planted && sed '%s' handouts/01-cpu-matvec.md > " TMP "/planted/%s.md && "
              "sh common/tools/%s " TMP "/planted/%s.md > " TMP "/planted/%s.log 2>&1",
              sed_script, name, checker, name, name);
}

/* The template checker's verdict on a planted copy of handout 01. */
static int check_planted(const char *name, const char *sed_script)
{
    return plant_and_check("handout-check.sh", name, sed_script);
}

/* The path checker's verdict on a copy of handout 01 with LINE added after its "# Background". */
static int check_paths_planted(const char *name, const char *line)
{
    char script[512];
    snprintf(script, sizeof script, "/^# Background$/a %s", line);
    return plant_and_check("handout-paths.sh", name, script);
}

static int log_says(const char *name, const char *words)
{
    char path[256];
    snprintf(path, sizeof path, TMP "/planted/%s.log", name);
    char *log = slurp(path);
    int found = log && strstr(log, words);
    free(log);
    return found;
}

/* The first prototype of the lab's headers, as it stands in grading/NN-name/<header>.h: a line
 * that starts a declaration in column 0 and ends with ");" (a header of the lab's runner side,
 * lab 05's runner.h, declares none so: it is passed over). */
static char *first_prototype(const char *lab)
{
    char pattern[512];
    glob_t g;
    snprintf(pattern, sizeof pattern, "grading/%s/*.h", lab);
    if (glob(pattern, 0, NULL, &g) != 0) return NULL;
    char *found = NULL;
    for (size_t i = 0; i < g.gl_pathc && !found; i++) {
        char *text = slurp(g.gl_pathv[i]), *save = NULL;
        for (char *line = text ? strtok_r(text, "\n", &save) : NULL; line && !found; line = strtok_r(NULL, "\n", &save)) {
            size_t n = strlen(line);
            if ((line[0] == '_' || (line[0] >= 'a' && line[0] <= 'z')) && n > 2 && strcmp(line + n - 2, ");") == 0 &&
                strncmp(line, "typedef", 7) != 0)
                found = strdup(line);
        }
        free(text);
    }
    globfree(&g);
    return found;
}

START_TEST(test_every_lab_has_a_handout_that_fits_the_template)
{
    ck_assert_int_gt((int)lab_files.gl_pathc, 0);
    for (size_t i = 0; i < lab_files.gl_pathc; i++)
        ck_assert_msg(sh("test -f handouts/%s.md", lab_name((int)i)) == 0, "no handouts/%s.md", lab_name((int)i));
    int rc = sh("sh common/tools/handout-check.sh handouts/[0-9][0-9]-*.md > " TMP "/check.log 2>&1");
    char *log = slurp(TMP "/check.log");
    ck_assert_msg(rc == 0, "handout-check.sh exited %d:\n%s", rc, log ? log : "");
    free(log);
}
END_TEST

START_TEST(test_handout_check_rejects_a_missing_section)
{
    ck_assert_int_eq(check_planted("no-questions", "/^# Questions$/d"), 1);
    ck_assert_msg(log_says("no-questions", "01-cpu-matvec.md:") == 0 && log_says("no-questions", "no-questions.md:"),
                  "the problem is not reported against the planted file");
    ck_assert(log_says("no-questions", "missing section \"Questions\""));
    ck_assert_int_eq(check_planted("no-further-reading", "/^# Further reading$/,$d"), 1);
    ck_assert(log_says("no-further-reading", "missing section \"Further reading\""));
    ck_assert_int_eq(check_planted("renamed-goal", "s/^# Goal$/# Aims/"), 1);
    ck_assert(log_says("renamed-goal", "section \"Aims\" is not in the template"));
    ck_assert_int_eq(check_planted("stage-without-hint", "0,/^### Hint$/{/^### Hint$/d}"), 1);
    ck_assert(log_says("stage-without-hint", "\"Hint\""));
    ck_assert_int_eq(check_planted("no-stages", "/^## Stage /d;/^### /d"), 1);
    ck_assert(log_says("no-stages", "has no \"## Stage N"));
    ck_assert_int_eq(check_planted("blog-uncredited", "/^- Credit: /d"), 1);
    ck_assert(log_says("blog-uncredited", "mentions the APMA2822 blog"));
    ck_assert_int_eq(check_planted("unchanged", ""), 0); /* the control: the same file, untouched */
}
END_TEST

/* Every path a handout names under labs/, grading/, common/, docs/ ... is in the kit `make dist`
 * builds: no solutions, no planted or honest submissions, nothing git does not track. */
START_TEST(test_every_handout_names_only_files_of_the_student_kit)
{
    int rc = sh("sh common/tools/handout-paths.sh handouts/[0-9][0-9]-*.md > " TMP "/paths.log 2>&1");
    char *log = slurp(TMP "/paths.log");
    ck_assert_msg(rc == 0, "handout-paths.sh exited %d:\n%s", rc, log ? log : "");
    free(log);
}
END_TEST

/* The path checker fails, naming the handout, its line and the path, on a copy of handout 01 that
 * names a planted submission (in full, or relative as planted/...), a solution, or a file git does
 * not track; and passes one that names generated files, a folder, a pattern, and a path at the end
 * of a sentence. */
START_TEST(test_handout_paths_flags_files_the_kit_lacks)
{
    static const struct {
        const char *name, *line, *path;
    } bad[] = {
        {"paths-planted", "See `grading/02-loop-order/planted/edge_blocks.c`, a submission that forgets the edges.",
         "grading/02-loop-order/planted/edge_blocks.c"},
        {"paths-relative-plant", "The grader rejects `planted/overwrites_c.c` on every shape.", "planted/overwrites_c.c"},
        {"paths-solution", "The reference is in solutions/01-cpu-matvec/matvec.c once released.",
         "solutions/01-cpu-matvec/matvec.c"},
        {"paths-honest", "Compare grading/03-openmp/honest/ with yours.", "grading/03-openmp/honest"},
        {"paths-untracked", "Read `common/no-such-file.c` first.", "common/no-such-file.c"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_msg(check_paths_planted(bad[i].name, bad[i].line) == 1, "%s: not flagged", bad[i].name);
        char where[128];
        snprintf(where, sizeof where, "%s.md:", bad[i].name);
        ck_assert_msg(log_says(bad[i].name, where) && log_says(bad[i].name, bad[i].path) &&
                          log_says(bad[i].name, "not in the student kit"),
                      "%s: the report does not name the handout and %s", bad[i].name, bad[i].path);
    }
    /* the controls: generated and source paths that are in the kit, and the file untouched */
    ck_assert_int_eq(check_paths_planted("paths-fine", "Results go to `build/results/01-cpu-matvec.json`, the probe is "
                                         "build/common/gpu-probe; see `grading/*/thresholds.conf`, `labs/` and "
                                         "docs/BENCHMARKS.md."),
                     0);
    ck_assert_int_eq(plant_and_check("handout-paths.sh", "paths-unchanged", ""), 0);
}
END_TEST

START_TEST(test_make_handouts_without_pandoc_names_the_package)
{
    ck_assert_int_ne(sh(MAKE " handouts PANDOC=/nonexistent/pandoc > " TMP "/nopandoc.log 2>&1"), 0);
    char *log = slurp(TMP "/nopandoc.log");
    ck_assert_ptr_nonnull(log);
    ck_assert_msg(strstr(log, "Debian package: pandoc") && strstr(log, "apt-get install -y pandoc"),
                  "make handouts without pandoc said: %s", log);
    free(log);
}
END_TEST

/* One page a lab, each sound and self-contained, with MathML where its handout has $...$ math, and
 * the first prototype of the lab's header in its text, quoted from the file at render time. */
START_TEST(test_make_handouts_renders_a_page_per_lab)
{
    if (pandoc_missing("make handouts")) return;
    ck_assert_int_eq(sh("rm -rf build/handouts && " MAKE " handouts > " TMP "/make.log 2>&1"), 0);
    glob_t pages;
    glob("build/handouts/*.html", 0, NULL, &pages);
    ck_assert_int_eq((int)pages.gl_pathc, (int)lab_files.gl_pathc);
    globfree(&pages);
    for (size_t i = 0; i < lab_files.gl_pathc; i++) {
        const char *lab = lab_name((int)i);
        char *proto = first_prototype(lab);
        ck_assert_msg(proto != NULL, "no prototype found in grading/%s/*.h", lab);
        int math = sh("grep -q '\\$[^$ ][^$]*\\$' handouts/%s.md", lab) == 0;
        int rc = sh("python3 tests/html-check.py build/handouts/%s.html %s --text '%s' > " TMP "/%s.check 2>&1", lab,
                    math ? "--tag math" : "", proto, lab);
        char path[256];
        snprintf(path, sizeof path, TMP "/%s.check", lab);
        char *why = slurp(path);
        ck_assert_msg(rc == 0, "build/handouts/%s.html: %s", lab, why ? why : "");
        free(why);
        free(proto);
    }
    /* the stylesheet is in the page */
    ck_assert_int_eq(sh("grep -q 'div.quote' build/handouts/01-cpu-matvec.html"), 0);
}
END_TEST

/* A handout that shows a figure gets it embedded; a quote of solutions/ or of a function that
 * isn't there stops the render, naming the handout. */
START_TEST(test_handout_figures_are_embedded_and_bad_quotes_stop_the_render)
{
    if (pandoc_missing("handout figures and quotes")) return;
    ck_assert_int_eq(sh("rm -rf " TMP "/fig && mkdir -p " TMP "/fig && printf '%%s\\n' '<svg "
                        "xmlns=\"http://www.w3.org/2000/svg\" width=\"40\" height=\"20\"><rect width=\"40\" "
                        "height=\"20\" fill=\"teal\"/></svg>' > " TMP "/fig/roofline.svg && sed "
                        "'/^# Background$/a ![The roofline of this machine](roofline.svg)' "
                        "handouts/01-cpu-matvec.md > " TMP "/fig/01-cpu-matvec.md && sh common/tools/handouts.sh " TMP
                        "/fig/out " TMP "/fig/01-cpu-matvec.md > " TMP "/fig.log 2>&1"),
                     0);
    ck_assert_int_eq(sh("grep -q 'src=\"data:image/svg+xml' " TMP "/fig/out/01-cpu-matvec.html"), 0);
    ck_assert_int_eq(sh("python3 tests/html-check.py " TMP "/fig/out/01-cpu-matvec.html --tag img > /dev/null"), 0);

    ck_assert_int_eq(sh("sed 's|include=\"grading/01-cpu-matvec/matvec.h\"|include=\"solutions/01-cpu-matvec/matvec.c\"|' "
                        "handouts/01-cpu-matvec.md > " TMP "/fig/02-solution.md && sh common/tools/handouts.sh " TMP
                        "/fig/out " TMP "/fig/02-solution.md > " TMP "/solution.log 2>&1"),
                     1);
    char *log = slurp(TMP "/solution.log");
    ck_assert_msg(log && strstr(log, "02-solution.md: quote of solutions/01-cpu-matvec/matvec.c: only files of labs/"),
                  "%s", log ? log : "(no log)");
    free(log);
    ck_assert_int_eq(sh("test ! -e " TMP "/fig/out/02-solution.html"), 0);
    ck_assert_int_eq(sh("sed 's|function=\"matvec_rows |function=\"matvec_columns |' handouts/01-cpu-matvec.md > " TMP
                        "/fig/03-drift.md && sh common/tools/handouts.sh " TMP "/fig/out " TMP "/fig/03-drift.md > " TMP
                        "/drift.log 2>&1"),
                     1);
    log = slurp(TMP "/drift.log");
    ck_assert_msg(log && strstr(log, "no function matvec_columns"), "%s", log ? log : "(no log)");
    free(log);
}
END_TEST


/* ---------------------------------------------------------------- figures quoted from BENCHMARKS */

/* A measured figure as a handout quotes it: the value, its decimals, and its unit scaled to one
 * base per kind (GB/s and TB/s as GB/s, GFLOP/s and TFLOP/s as GFLOP/s, ms and us as ms, %). */
typedef struct figure { double lo, hi, scale; int decimals; char unit[8]; } figure;

/* The unit at p (after optional spaces), normalised; `scale` set to what turns the value into it.
 * 0 when p holds none of them. */
static int unit_at(const char *p, char *unit, double *scale)
{
    static const struct { const char *text, *base; double scale; } units[] = {
        {"TFLOP/s", "GFLOP/s", 1e3}, {"GFLOP/s", "GFLOP/s", 1}, {"TB/s", "GB/s", 1e3},
        {"GB/s", "GB/s", 1},         {"ms", "ms", 1},           {"us", "ms", 1e-3},  {"%", "%", 1}};
    while (*p == ' ') p++;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        size_t n = strlen(units[i].text);
        if (!strncmp(p, units[i].text, n) && !(p[n] >= 'a' && p[n] <= 'z')) {
            snprintf(unit, 8, "%s", units[i].base);
            *scale = units[i].scale;
            return 1;
        }
    }
    return 0;
}

/* Every number in text (a range "a-b" as one, lo to hi), with the unit after it if any. */
static int figures_of(const char *text, figure *out, int max)
{
    int n = 0;
    for (const char *p = text; *p && n < max;) {
        if (!(*p >= '0' && *p <= '9') || (p > text && (p[-1] == '.' || (p[-1] >= '0' && p[-1] <= '9')) ) ||
            (p > text && ((p[-1] >= 'a' && p[-1] <= 'z') || (p[-1] >= 'A' && p[-1] <= 'Z') || p[-1] == '_' || p[-1] == '^'))) {
            p++;
            continue;
        }
        char *end;
        double a = strtod(p, &end), b = a;
        const char *dot = memchr(p, '.', (size_t)(end - p));
        int decimals = dot ? (int)(end - dot - 1) : 0;
        const char *q = end;
        if ((*q == '-' || !strncmp(q, "\xe2\x80\x93", 3)) && q[*q == '-' ? 1 : 3] >= '0' && q[*q == '-' ? 1 : 3] <= '9')
            b = strtod(q + (*q == '-' ? 1 : 3), (char **)&q);
        figure f = {fmin(a, b), fmax(a, b), 1, decimals, ""};
        unit_at(q, f.unit, &f.scale);
        out[n++] = f;
        p = q > p ? q : p + 1;
    }
    return n;
}

/* Is this figure of a handout backed by one of BENCHMARKS (bench, nb of them)? A number that
 * rounds to it at the handout's precision, as written or in the other scale of its unit (2.95
 * TB/s and 2950 GB/s; the tables state units in their headers), or a range of the same unit that
 * holds it. */
static int backed(const figure *f, const figure *bench, int nb)
{
    double half = 0.5 * pow(10, -f->decimals) * 1.0000001;
    for (int i = 0; i < nb; i++) {
        const figure *b = &bench[i];
        if (b->lo == b->hi) {
            if (fabs(b->lo - f->lo) <= half || fabs(b->lo - f->lo * f->scale) <= half * f->scale ||
                fabs(b->lo * b->scale - f->lo * f->scale) <= half * f->scale)
                return 1;
        } else if (f->unit[0] && !strcmp(b->unit, f->unit) && f->lo * f->scale >= b->lo * b->scale - half * f->scale &&
                   f->hi * f->scale <= b->hi * b->scale + half * f->scale)
            return 1;
    }
    return 0;
}

/* The figures with a unit in every paragraph of `handout` that cites docs/BENCHMARKS.md and are
 * not backed by it, into out (one a line); how many. A sentence that names a datasheet is left
 * out: a vendor's figure, or arithmetic on one. */
static int unbacked_figures(const char *handout, const char *benchmarks, char *out, size_t len)
{
    char *text = slurp(handout), *doc = slurp(benchmarks);
    ck_assert_msg(text && doc, "cannot read %s or %s", handout, benchmarks);
    enum { MAX_BENCH = 1 << 17, MAX_PARA = 256 };
    figure *bench = malloc(MAX_BENCH * sizeof *bench), para[MAX_PARA];
    int nb = figures_of(doc, bench, MAX_BENCH), bad = 0;
    out[0] = '\0';
    for (char *p = text, *next; p && *p; p = next) {
        next = strstr(p, "\n\n");
        if (next) *next = '\0', next += 2;
        if (!strstr(p, "BENCHMARKS")) continue;
        for (char *s = p, *stop; s && *s; s = stop) { /* sentence by sentence, a table row as one */
            stop = s + strcspn(s, ".\n");
            while (*stop == '.' && stop[1] && stop[1] != ' ' && stop[1] != '\n') stop += 1 + strcspn(stop + 1, ".\n");
            if (*stop) *stop = '\0', stop++;
            else stop = NULL;
            if (strstr(s, "datasheet") || strstr(s, "peak")) continue;
            int n = figures_of(s, para, MAX_PARA);
            for (int i = 0; i < n; i++) {
                if (!para[i].unit[0] || backed(&para[i], bench, nb)) continue;
                bad++;
                size_t used = strlen(out);
                snprintf(out + used, len - used, "%s: %g%s%s in: %.160s\n", handout, para[i].lo, para[i].scale == 1 ? " " : " x1000 ",
                         para[i].unit, s);
            }
        }
    }
    free(bench);
    free(text);
    free(doc);
    return bad;
}

/* Every measured figure a handout quotes in a paragraph that cites docs/BENCHMARKS.md is there (a
 * number that rounds to it, or a range of its unit that holds it); and a made-up figure is caught. */
START_TEST(test_handout_figures_quoted_from_benchmarks_are_there)
{
    char out[8192];
    glob_t hs;
    glob("handouts/[0-9][0-9]-*.md", 0, NULL, &hs);
    ck_assert_int_gt((int)hs.gl_pathc, 0);
    for (size_t i = 0; i < hs.gl_pathc; i++)
        ck_assert_msg(unbacked_figures(hs.gl_pathv[i], "docs/BENCHMARKS.md", out, sizeof out) == 0, "%s", out);
    globfree(&hs);
    /* a figure BENCHMARKS never held, as one the review found (lab 07's reference at 1024^3) */
    ck_assert_int_eq(sh("printf 'The reference ran at 12345.6 TFLOP/s at 1024^3 (docs/BENCHMARKS.md).\\n' > " TMP
                        "/made-up.md"), 0);
    ck_assert_int_eq(unbacked_figures(TMP "/made-up.md", "docs/BENCHMARKS.md", out, sizeof out), 1);
    ck_assert_msg(strstr(out, "12345.6") || strstr(out, "1.23456e+07"), "%s", out);
}
END_TEST

Suite *handouts_suite(void)
{
    glob("grading/[0-9][0-9]-*/lab.c", 0, NULL, &lab_files);
    sh("mkdir -p " TMP);
    Suite *s = suite_create("handouts");
    TCase *t = tcase_create("template-and-render");
    tcase_add_test(t, test_every_lab_has_a_handout_that_fits_the_template);
    tcase_add_test(t, test_handout_check_rejects_a_missing_section);
    tcase_add_test(t, test_every_handout_names_only_files_of_the_student_kit);
    tcase_add_test(t, test_handout_paths_flags_files_the_kit_lacks);
    tcase_add_test(t, test_make_handouts_without_pandoc_names_the_package);
    tcase_add_test(t, test_make_handouts_renders_a_page_per_lab);
    tcase_add_test(t, test_handout_figures_are_embedded_and_bad_quotes_stop_the_render);
    tcase_add_test(t, test_handout_figures_quoted_from_benchmarks_are_there);
    tcase_set_timeout(t, 300);
    suite_add_tcase(s, t);
    return s;
}
