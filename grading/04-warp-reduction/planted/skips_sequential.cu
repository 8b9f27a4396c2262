/* expect: technique in sequential
 * threats: - (rows of ../shared/GRADER_THREATS.md)
 * A stage skipped: `sequential` runs stage 3's tree (thread tid on index 2 * s * tid). Its
 * working threads are packed into whole warps, as sequential addressing's are, so only its
 * shared-memory reads tell it apart: at a stride of 2 s words they conflict 2-way at the first
 * step and 32-way by the last. Right at every size. */
#include "reduce.h"
#include "textbook/samples_tree.h"

#define PLANT_STAGES "sequential"

static void add(int, const float *, const float *, float *) {}
static void sum(int n, const float *in, float *out, float *work) { samples_tree_sum<STRIDED>(n, in, out, work); }
static void mv(int, int, const double *, const double *, double *) {}

#include "planted/entry_points.h"
