/* expect: too-slow|not-judged in blocked
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * A stage skipped: `blocked` runs stage 3's code, rows of C shared out with i-k-j inside and no
 * blocks (right, and parallel: the threads are busy). At the judged shape B is twice the last-level
 * cache, so every row of A reads all of B from memory again, and the threads share that bandwidth.
 * Too slow (5-6% of OpenBLAS against 8%), or where a quick moment reads it over 8%, its speedup over
 * one-thread i-k-j (2.0-2.6x against 4x: it lacks the blocking's gain) UNJUDGED, no speed credit. */
#include "planted/common.h"
#include "parallel.h"

#define PLANT_STAGES "blocked"

static void mv(int m, int n, const double *A, const double *x, double *y) { (void)m, (void)n, (void)A, (void)x, (void)y; }
static double dt(int n, const double *x, const double *y) { (void)n, (void)x, (void)y; return 0.0; }
static void mm(int m, int n, int k, const double *A, const double *B, double *C) { par_matmul(m, n, k, A, B, C); }

#include "planted/entry_points.h"
