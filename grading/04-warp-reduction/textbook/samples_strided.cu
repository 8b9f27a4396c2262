/* textbook: strided
 * The `strided` tree as NVIDIA's reduction samples teach it: Harris's kernel 2: thread tid works on index 2 * s * tid, so the working threads are packed into whole warps, and shared memory is read at a stride that conflicts.
 * One element a thread, a launch a level (textbook/samples_tree.h). Graded on `strided` only (the
 * other stages launch nothing): the study of what a pass certifies grades it, and a
 * technique-correct textbook kernel must pass. */
#include "reduce.h"
#include "textbook/samples_tree.h"

#define PLANT_STAGES "strided"

static void add(int, const float *, const float *, float *) {}
static void sum(int n, const float *in, float *out, float *work) { samples_tree_sum<STRIDED>(n, in, out, work); }
static void mv(int, int, const double *, const double *, double *) {}

#include "planted/entry_points.h"
