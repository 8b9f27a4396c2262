/* main.c - runs every suite and prints Check's summary line last. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

#include "tests.h"
#include "util.h"

int sh(const char *fmt, ...)
{
    char cmd[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    int st = system(cmd);
    return st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

char *slurp(const char *path) { return read_text(path, 1 << 24); }

int main(void)
{
    SRunner *sr = srunner_create(units_suite());
    srunner_add_suite(sr, grading_suite());
    srunner_add_suite(sr, handouts_suite());
    srunner_add_suite(sr, roofline_suite());
    srunner_add_suite(sr, audit_suite());
    srunner_add_suite(sr, sandbox_suite());
    if (!getenv("CHECK_LABS") || !*getenv("CHECK_LABS")) srunner_add_suite(sr, instructor_suite());
    /* where no GPU is, the GPU labs' builds run in the background from the first test on: their
     * tests come last, after every suite that leaves them a core */
    srunner_add_suite(sr, gpu_labs_suite());
    srunner_run_all(sr, CK_ENV); /* CK_VERBOSITY=verbose lists every test; CK_RUN_SUITE=handouts runs one suite */
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
