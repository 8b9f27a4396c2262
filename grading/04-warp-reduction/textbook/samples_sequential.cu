/* textbook: sequential
 * The `sequential` tree as NVIDIA's reduction samples teach it: Harris's kernel 3: s halves from blockDim.x / 2 and threads tid < s work, packed and without bank conflicts.
 * One element a thread, a launch a level (textbook/samples_tree.h). Graded on `sequential` only (the
 * other stages launch nothing): the study of what a pass certifies grades it, and a
 * technique-correct textbook kernel must pass. */
#include "reduce.h"
#include "textbook/samples_tree.h"

#define PLANT_STAGES "sequential"

static void add(int, const float *, const float *, float *) {}
static void sum(int n, const float *in, float *out, float *work) { samples_tree_sum<SEQUENTIAL>(n, in, out, work); }
static void mv(int, int, const double *, const double *, double *) {}

#include "planted/entry_points.h"
