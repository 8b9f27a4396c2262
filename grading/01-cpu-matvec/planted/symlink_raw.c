/* expect: forbidden-syscall
 * threats: 32, 33 (rows of ../shared/GRADER_THREATS.md)
 * Plants a symbolic link, through a raw symlinkat (invisible to the symbol audit), where the scorer
 * later writes its results: a root scorer writing build/results/<tree>/01-cpu-matvec.json through
 * it would overwrite whatever the link names (here the workbook's Makefile). The product itself is
 * right, so only the link could fail it. The allowlist kills the runner at the call; the uid drop
 * and the private folder (no build/ around the runner) would stop the link even without it. */
#include <stddef.h>
#include "matvec.h"

static long raw3(long nr, long a, long b, long c)
{
    long r;
    __asm__ volatile("syscall" : "=a"(r) : "a"(nr), "D"(a), "S"(b), "d"(c) : "rcx", "r11", "memory");
    return r;
}

static void product(int m, int n, const double *A, const double *x, double *y)
{
    /* once a process: symlinkat(target, AT_FDCWD, linkpath), relative to the runner's old folder
     * build/scratch/<tree>/<lab> (a call per row would slow it into failing for its speed) */
    static int planted;
    if (!planted++) raw3(266, (long)"../../../../Makefile", -100, (long)"../../../results/hostile/01-cpu-matvec.json");
    for (int i = 0; i < m; i++) {
        double s = 0;
        for (int j = 0; j < n; j++) s += A[(size_t)i * n + j] * x[j];
        y[i] = s;
    }
}

#include "planted/entry_points.h"
