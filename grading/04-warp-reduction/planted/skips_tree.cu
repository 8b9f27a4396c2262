/* expect: technique in strided,sequential
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * Stages skipped: `strided` and `sequential` run stage 2's tree (the reduction samples' first
 * kernel, tid % (2 * s) == 0). Right at every size; speed does not tell it apart on an H100
 * (the reference's stage-1 tree reads 30% of the copy, above both stages' thresholds). Its
 * branches split every warp's lanes, which is what both stages remove. */
#include "reduce.h"
#include "textbook/samples_tree.h"

#define PLANT_STAGES "strided,sequential"

static void add(int, const float *, const float *, float *) {}
static void sum(int n, const float *in, float *out, float *work) { samples_tree_sum<INTERLEAVED>(n, in, out, work); }
static void mv(int, int, const double *, const double *, double *) {}

#include "planted/entry_points.h"
