/* textbook: interleaved
 * The `interleaved` tree as NVIDIA's reduction samples teach it: Harris's kernel 1: the threads that work thin out inside every warp (tid % (2 * s) == 0), a divergent branch at each step.
 * One element a thread, a launch a level (textbook/samples_tree.h). Graded on `interleaved` only (the
 * other stages launch nothing): the study of what a pass certifies grades it, and a
 * technique-correct textbook kernel must pass. */
#include "reduce.h"
#include "textbook/samples_tree.h"

#define PLANT_STAGES "interleaved"

static void add(int, const float *, const float *, float *) {}
static void sum(int n, const float *in, float *out, float *work) { samples_tree_sum<INTERLEAVED>(n, in, out, work); }
static void mv(int, int, const double *, const double *, double *) {}

#include "planted/entry_points.h"
