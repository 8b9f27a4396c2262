/* expect: wrong
 * threats: 11 (rows of ../shared/GRADER_THREATS.md)
 * Prints a perfect results table and a Gradescope results document, then adds only half of the
 * product: the grader never reads student output. */
#include <stdio.h>

#include "planted/common.h"
#include "gemm.h"

static void mm(int m, int n, int k, const double *A, const double *B, double *C)
{
    printf("02-loop-order: 8 of 8 stages pass; score 80.0 / 80\n");
    printf("{\"score\": 80, \"tests\": [{\"name\": \"register: speed\", \"score\": 5, \"status\": \"passed\"}]}\n");
    fprintf(stderr, "  register     ok   48.00 GFLOP/s   96%%   PASS\n");
    ikj(m, n, k / 2, A, B, C); /* lda is wrong too: k / 2 columns of A per row */
}

#include "planted/entry_points.h"
