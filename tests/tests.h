/* tests.h - the workbook's own test suite (Check): one suite per area, and helpers they share. */
#ifndef TESTS_H
#define TESTS_H

#include <check.h>

Suite *units_suite(void);   /* harness pieces: statistics, tolerance, diagnosis, config, JSON, RNG */
Suite *grading_suite(void); /* end to end: references pass, starters fail, planted submissions caught */
Suite *gpu_labs_suite(void);  /* the GPU labs' references, starters, plants and honest files (after grading_suite) */
Suite *instructor_suite(void); /* handin, the student kit, grade-all and its gradebook, LMS formats */
Suite *handouts_suite(void);   /* the handouts: the template, and make handouts (HTML pages) */
Suite *roofline_suite(void);   /* the roofline charts, drawn from fixed results files */
Suite *audit_suite(void);      /* the build audit's report of a refused call: demangled, at its line */
Suite *sandbox_suite(void);    /* the runner's sandbox from outside: no signal, trace or new code gets out */

/* Run a shell command; return its exit status (-1 if it did not exit normally). */
int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The whole of a file, or NULL; caller frees. */
char *slurp(const char *path);
/* Where no GPU is, the GPU labs' builds run in the background (test_grading.c): 1 stops them while a
 * test times something that their compiles would slow (cores, cache), 0 lets them go on. */
void hold_background(int hold);

#endif
